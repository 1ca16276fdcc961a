/**
 * Issue 12 finding 3: a background+stream response cut off when its runtime dies (the leader
 * tab closed) keeps the output its event log recorded, and its log ends with the terminal
 * event, so every resumed stream ends with `response.failed`.
 */
import { afterEach, expect, test } from 'vitest';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { UNLOGGED_EVENTS_MAX } from '../../src/protocol/stream-events';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

const open: LocalClient[] = [];
afterEach(async () => {
  for (const local of open.splice(0)) await closeAndCheck(local);
});

test('the next runtime keeps the partial output and appends response.failed to the log', async () => {
  const first = await localClient();
  open.push(first);
  const words = Array.from({ length: 60 }, (_, i) => `w${i} `).join('');
  const stream = await first.client.responses.create({ model: 'test-scripted', input: script(words, { delay_ms: 20, chunk: 3 }), background: true, stream: true });
  const seen: ResponseStreamEvent[] = [];
  let id = '';
  for await (const event of stream) {
    seen.push(event);
    if (event.type === 'response.created') id = event.response.id;
    if (seen.filter((e) => e.type === 'response.output_text.delta').length >= 6) break;
  }
  // Let the flush timer (5 ms here) write what was sent, then the tab "dies": its database
  // connection goes away mid-run, so nothing more it does reaches storage.
  await new Promise((r) => setTimeout(r, 60));
  first.store.close();

  const next = await localClient({ dbName: first.dbName });
  open.push(next);
  const recovered = await next.client.responses.retrieve(id);
  expect(recovered.status).toBe('failed');
  expect(recovered.error?.message).toMatch(/interrupted/);
  const message = recovered.output.find((i) => i.type === 'message');
  expect(message?.type === 'message' && message.status).toBe('incomplete');
  const text = message?.type === 'message' && message.content[0]?.type === 'output_text' ? message.content[0].text : '';
  const sent = seen.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('');
  expect(text.startsWith(sent)).toBe(true);
  expect(words.startsWith(text)).toBe(true);

  // Resuming from where the client was, or from the start, ends with the terminal event.
  const last = seen.at(-1)!.sequence_number;
  for (const after of [last, 0]) {
    const resumed: ResponseStreamEvent[] = [];
    for await (const event of await next.client.responses.retrieve(id, { stream: true, starting_after: after })) resumed.push(event);
    expect(resumed.at(-1)?.type).toBe('response.failed');
    const terminal = resumed.at(-1) as Extract<ResponseStreamEvent, { type: 'response.failed' }>;
    expect(terminal.response.output).toEqual(recovered.output);
    // The logged events follow each other; the terminal event is numbered past anything the
    // dead run can have shown a client (UNLOGGED_EVENTS_MAX), so numbers only grow.
    resumed.slice(0, -1).forEach((e, i) => expect(e.sequence_number).toBe(after + 1 + i));
    const lastLogged = resumed.at(-2)?.sequence_number ?? after;
    expect(terminal.sequence_number).toBe(lastLogged + UNLOGGED_EVENTS_MAX + 1);
  }
});
