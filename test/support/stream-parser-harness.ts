/**
 * Test support for chat-format parsers (imported by `*.test.ts` only): feeds an output whole,
 * split in two at every position, and one UTF-16 unit at a time, and checks that the merged
 * events never depend on the chunking — the invariant every `StreamParser` keeps.
 */
import { expect } from 'vitest';
import type { ParseEvent, StreamParser } from '../../src/chat/chat-format';

export interface Run {
  events: ParseEvent[];
  reasoningSpans: Array<[number, number]>;
  toolCallSpans: Array<[number, number]>;
}

type ParserWithSpans = StreamParser & { toolCallSpans?(): Array<[number, number]> };

export function runChunks(createParser: () => ParserWithSpans, chunks: string[]): Run {
  const parser = createParser();
  const events = chunks.flatMap((chunk) => parser.push(chunk));
  events.push(...parser.end());
  return { events: mergeEvents(events), reasoningSpans: parser.reasoningSpans(), toolCallSpans: parser.toolCallSpans?.() ?? [] };
}

/** Adjacent text / reasoning events joined: chunking may only change how text is cut. */
export function mergeEvents(events: ParseEvent[]): ParseEvent[] {
  const merged: ParseEvent[] = [];
  for (const event of events) {
    const last = merged[merged.length - 1];
    if ((event.type === 'text' || event.type === 'reasoning') && last?.type === event.type) {
      merged[merged.length - 1] = { type: event.type, text: last.text + event.text };
    } else merged.push(event);
  }
  return merged;
}

/** Every 2-way split, then one UTF-16 unit at a time. */
export function chunkings(input: string): string[][] {
  const twoWay = Array.from({ length: input.length + 1 }, (_, i) => [input.slice(0, i), input.slice(i)]);
  return [...twoWay, input.split('')];
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Parses `input` whole and under every chunking; all must agree, no event may hold half an
 * emoji, and text events + accepted tool-call blocks must give back the input minus reasoning.
 */
export function parseEveryChunking(createParser: () => ParserWithSpans, input: string): Run {
  const whole = runChunks(createParser, [input]);
  for (const chunks of chunkings(input)) {
    expect(runChunks(createParser, chunks), JSON.stringify(chunks)).toEqual(whole);
    const parser = createParser();
    const events = [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
    for (const event of events) {
      if ('text' in event && !LONE_SURROGATE.test(input)) expect(event.text).not.toMatch(LONE_SURROGATE);
    }
  }
  expect(reassemble(input, whole)).toBe(removeSpans(input, whole.reasoningSpans));
  return whole;
}

/** Text events, with each accepted tool call replaced by its raw block. */
function reassemble(input: string, { events, toolCallSpans }: Run): string {
  const blocks = toolCallSpans.map(([start, end]) => input.slice(start, end));
  return events
    .map((event) => (event.type === 'text' ? event.text : event.type === 'tool_call' ? blocks.shift() : ''))
    .join('');
}

function removeSpans(input: string, spans: Array<[number, number]>): string {
  let rest = '';
  let from = 0;
  for (const [start, end] of spans) {
    rest += input.slice(from, start);
    from = end;
  }
  return rest + input.slice(from);
}

export const textEvent = (value: string): ParseEvent => ({ type: 'text', text: value });
export const reasoningEvent = (value: string): ParseEvent => ({ type: 'reasoning', text: value });
export const reasoningDone: ParseEvent = { type: 'reasoning_done' };
export const toolCallEvent = (name: string, args: unknown): ParseEvent => ({ type: 'tool_call', name, arguments: JSON.stringify(args) });
