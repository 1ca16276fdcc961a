import { describe, expect, test } from 'vitest';
import { SSE_DONE, SseDecoder, encodeSseEvent } from './sse';

const enc = new TextEncoder();

function decodeInChunks(bytes: Uint8Array, cuts: number[]) {
  const decoder = new SseDecoder();
  const out = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...decoder.push(bytes.slice(start, cut)));
    start = cut;
  }
  out.push(...decoder.end());
  return out;
}

describe('SSE codec', () => {
  const events = [
    { type: 'response.output_text.delta', sequence_number: 0, delta: 'héllo wörld 🌍 — 日本語' },
    { type: 'response.output_text.delta', sequence_number: 1, delta: 'line\nbreak and "quotes"' },
    { type: 'response.completed', sequence_number: 2, response: { id: 'resp_1' } },
  ];
  const wire = enc.encode(events.map(encodeSseEvent).join('') + SSE_DONE);
  const expected = [...events.map((e) => ({ event: e.type, data: JSON.stringify(e) })), { event: null, data: '[DONE]' }];

  test('event: equals data.type, one data line per event, [DONE] last', () => {
    const text = new TextDecoder().decode(wire);
    expect(text.startsWith('event: response.output_text.delta\ndata: {')).toBe(true);
    expect(text.endsWith('\n\ndata: [DONE]\n\n')).toBe(true);
    expect(decodeInChunks(wire, [])).toEqual(expected);
  });

  test('every split point, including inside lines and inside multi-byte characters', () => {
    for (let cut = 1; cut < wire.length; cut++) expect(decodeInChunks(wire, [cut])).toEqual(expected);
  });

  test('one byte at a time', () => {
    expect(decodeInChunks(wire, Array.from({ length: wire.length - 1 }, (_, i) => i + 1))).toEqual(expected);
  });

  test('CRLF and CR line endings, comments, multi-line data, missing final blank line', () => {
    const text = ': keep-alive\r\nevent: a\r\ndata: 1\r\ndata: 2\r\n\r\nevent: b\rdata: x\r\revent: c\ndata: tail';
    const bytes = enc.encode(text);
    const want = [
      { event: 'a', data: '1\n2' },
      { event: 'b', data: 'x' },
      { event: 'c', data: 'tail' },
    ];
    for (let cut = 1; cut < bytes.length; cut++) expect(decodeInChunks(bytes, [cut])).toEqual(want);
  });
});
