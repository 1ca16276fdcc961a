import { expect, test } from 'vitest';
import { readSse } from './sse-reader';

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(chunks.join(''));
  // Split at every 7th byte: events, lines and multi-byte characters are cut anywhere.
  const parts: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 7) parts.push(bytes.slice(i, i + 7));
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

test('parses data payloads split anywhere, and stops at [DONE]', async () => {
  const events = [];
  for await (const e of readSse(body(['event: progress\ndata: {"type":"progress","text":"é"}\n\n', 'data: {"type":"ready"}\n\n', 'data: [DONE]\n\n', 'data: {"late":1}\n\n'])))
    events.push(e);
  expect(events).toEqual([{ type: 'progress', text: 'é' }, { type: 'ready' }]);
});
