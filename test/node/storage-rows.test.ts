/**
 * Issue 35: what one short response leaves in IndexedDB, row by row — so a change that makes
 * responses take more rows again fails here (the bytes: `npm run bench:storage`). And what
 * the smaller log still promises: a background response's stream replays exactly, from any
 * sequence number; any other response's log is gone once it has finished.
 */
import { openDB } from 'idb';
import { afterEach, expect, test } from 'vitest';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { withOverrides } from '../fakes/store-overrides';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

const open: LocalClient[] = [];
afterEach(async () => {
  for (const local of open.splice(0)) await closeAndCheck(local);
});

/** ~250 characters of answer, as the benchmark's responses: 63 text deltas, 72 events. */
const ANSWER = 'A short answer of about two hundred and fifty characters, '.repeat(5).slice(0, 250);

/**
 * A client whose runtime flushes a running log only when half the readers' allowance is
 * waiting (a 10 s timer): a short answer's events then all land with its final save, as they
 * do when it is generated faster than the flush interval (the benchmark's case).
 */
async function client(): Promise<LocalClient> {
  const local = await localClient({ server: { flushMs: 10_000 } });
  open.push(local);
  return local;
}

async function rowsOf(local: LocalClient): Promise<Record<string, number>> {
  await local.checked();
  const db = await openDB(local.dbName);
  const counts: Record<string, number> = {};
  for (const store of ['responses', 'items', 'events', 'conversations', 'conversation_items'] as const) counts[store] = await db.count(store);
  db.close();
  return counts;
}

async function collect(stream: AsyncIterable<ResponseStreamEvent>): Promise<ResponseStreamEvent[]> {
  const events: ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

test('a short plain response: its row and one row per item, no event log', async () => {
  const local = await client();
  const response = await local.client.responses.create({ model: 'test-scripted', input: script(ANSWER) });
  expect(response.output_text).toBe(ANSWER);
  expect(await rowsOf(local)).toEqual({ responses: 1, items: 2, events: 0, conversations: 0, conversation_items: 0 });
});

test('a short streamed response: no event log once it has finished; a stream of it is a 400 saying why', async () => {
  const local = await client();
  const events = await collect(await local.client.responses.create({ model: 'test-scripted', input: script(ANSWER), stream: true }));
  expect(events).toHaveLength(71); // created, in_progress, 63 deltas and 6 more, completed
  expect(await rowsOf(local)).toEqual({ responses: 1, items: 2, events: 0, conversations: 0, conversation_items: 0 });
  const id = events[0]!.type === 'response.created' ? events[0]!.response.id : '';
  const retrieved = await local.client.responses.retrieve(id);
  expect(retrieved.output_text).toBe(ANSWER);
  expect((await local.client.responses.inputItems.list(id)).data).toHaveLength(1);
  const replay = await local.http(`/v1/responses/${id}?stream=true`);
  expect(replay.status).toBe(400);
  expect(await replay.json()).toMatchObject({ error: { code: 'no_event_log', param: 'stream' } });
});

test.each([
  ['streamed', true],
  ['polled', false],
])('a short background response (%s): its whole log is one row, and replays exactly from any number', async (_name, stream) => {
  const local = await client();
  let id: string;
  let live: ResponseStreamEvent[] | null = null;
  if (stream) {
    live = await collect(await local.client.responses.create({ model: 'test-scripted', input: script(ANSWER), background: true, stream: true }));
    id = live[0]!.type === 'response.created' ? live[0]!.response.id : '';
  } else {
    id = (await local.client.responses.create({ model: 'test-scripted', input: script(ANSWER), background: true })).id;
    while ((await local.client.responses.retrieve(id)).status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 5));
  }
  // The run leaves the server's table once it has saved: then reads come from storage.
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await rowsOf(local)).toEqual({ responses: 1, items: 2, events: 1, conversations: 0, conversation_items: 0 });
  const whole = await collect(await local.client.responses.retrieve(id, { stream: true }));
  expect(whole).toHaveLength(72); // as streamed, and response.queued
  if (live) expect(whole).toEqual(live);
  for (const after of [0, 5, 40, 70]) expect(await collect(await local.client.responses.retrieve(id, { stream: true, starting_after: after }))).toEqual(whole.filter((e) => e.sequence_number > after));
});

test('a background response flushed many times while it ran: one row once it has finished, the same events', async () => {
  let flushes = 0;
  const local = await localClient({
    server: { flushMs: 5 },
    wrapStore: (inner) => withOverrides(inner, { appendEvents: (id, events) => (flushes++, inner.appendEvents(id, events)) }),
  });
  open.push(local);
  const live = await collect(await local.client.responses.create({ model: 'test-scripted', input: script(ANSWER, { delay_ms: 3 }), background: true, stream: true }));
  const id = live[0]!.type === 'response.created' ? live[0]!.response.id : '';
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(flushes).toBeGreaterThan(5);
  expect(await rowsOf(local)).toMatchObject({ responses: 1, items: 2, events: 1 });
  expect(await collect(await local.client.responses.retrieve(id, { stream: true }))).toEqual(live);
  expect(await collect(await local.client.responses.retrieve(id, { stream: true, starting_after: 30 }))).toEqual(live.slice(31));
});

test('a response continued the moment retrieve says it finished, while its final save is still being written: chain and conversation both wait for it', async () => {
  // Final saves take 50 ms (a slow disk, a log being compressed).
  const local = await localClient({
    wrapStore: (inner) =>
      withOverrides(inner, {
        save: async (response, events, append, options) => {
          if (response.status === 'completed') await new Promise((resolve) => setTimeout(resolve, 50));
          return inner.save(response, events, append, options);
        },
      }),
  });
  open.push(local);
  const until = async (id: string) => {
    while ((await local.client.responses.retrieve(id)).status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 2));
  };
  const first = await local.client.responses.create({ model: 'test-scripted', input: 'one', background: true });
  await until(first.id);
  const next = await local.client.responses.create({ model: 'test-scripted', input: 'two', previous_response_id: first.id });
  expect(next.output_text).toBe('You said: two');

  const conversation = await local.client.conversations.create({});
  const turn = await local.client.responses.create({ model: 'test-scripted', input: 'three', background: true, conversation: conversation.id });
  await until(turn.id);
  await local.client.responses.create({ model: 'test-scripted', input: 'four', conversation: conversation.id });
  const items = await local.client.conversations.items.list(conversation.id, { order: 'asc' });
  expect(items.data.map((i) => (i.type === 'message' ? i.role : i.type))).toEqual(['user', 'assistant', 'user', 'assistant']);
});
