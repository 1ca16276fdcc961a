import 'fake-indexeddb/auto';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { ResponseObject } from '../protocol/response-object';
import type { StreamEvent } from '../protocol/stream-events';
import { initialResponse, unreadableResponse } from '../server/run/response-factory';
import { openIdbStore } from './idb-store';
import type { ResponseStore } from '../ports/response-store';

let store: ResponseStore;
let n = 0;
beforeEach(async () => {
  store = await openIdbStore({ name: `store-test-${process.pid}-${n++}` });
});
afterEach(() => store.close());

function response(id: string, status: ResponseObject['status'], completedAt: number | null = null, background = false): ResponseObject {
  return { ...initialResponse(id, { model: 'm', background }, status, 1000), completed_at: completedAt };
}
const event = (seq: number): StreamEvent => ({ type: 'response.output_text.delta', sequence_number: seq, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'x', logprobs: [] });

test('event logs of responses finished before the cutoff are pruned, others kept', async () => {
  await store.create(response('old', 'in_progress'), []);
  await store.create(response('new', 'in_progress'), []);
  await store.create(response('running', 'in_progress'), []);
  await store.save(response('old', 'completed', 100, true), [event(0), event(1)]);
  await store.save(response('new', 'completed', 5000, true), [event(0)]);
  await store.appendEvents('running', [event(0)]);
  expect(await store.pruneEventLogs(1000)).toBe(1);
  expect(await store.events('old', -1)).toEqual([]);
  expect(await store.events('new', -1)).toHaveLength(1);
  expect(await store.events('running', -1)).toHaveLength(1);
  expect(await store.get('old')).toMatchObject({ status: 'completed' });
});

test('failUnfinished marks queued and in_progress responses failed with the message', async () => {
  await store.create(response('q', 'queued'), []);
  await store.create(response('p', 'in_progress'), []);
  await store.create(response('done', 'in_progress'), []);
  await store.save(response('done', 'completed', 10), []);
  const ids = await store.failUnfinished('interrupted, send it again', 2000, (id, reason, salvage) => unreadableResponse(id, reason, salvage, 2000));
  expect(ids.sort()).toEqual(['p', 'q']);
  expect(await store.get('q')).toMatchObject({ status: 'failed', error: { code: 'server_error', message: 'interrupted, send it again' } });
  expect(await store.get('done')).toMatchObject({ status: 'completed' });
});

test('save on a deleted response writes nothing back', async () => {
  await store.create(response('gone', 'in_progress'), []);
  expect(await store.delete('gone')).toBe(true);
  await store.save(response('gone', 'completed', 10), [event(0)]);
  expect(await store.get('gone')).toBeUndefined();
  expect(await store.events('gone', -1)).toEqual([]);
  expect(await store.delete('gone')).toBe(false);
});

test('failUnfinished skips past rows it cannot use: each is replaced by a failed response, the rest are failed as usual', async () => {
  const name = `store-test-${process.pid}-${n++}`;
  const poisoned = await openIdbStore({ name });
  await poisoned.create(response('good', 'in_progress'), []);
  poisoned.close();
  // Rows an older or broken version could have left, written past the store.
  const { openDB } = await import('idb');
  const db = await openDB(name);
  await db.put('responses', { id: 'null-response', status: 'in_progress', response: null });
  await db.put('responses', { id: 'no-output', status: 'queued', response: { id: 'no-output', model: 'm', created_at: 5, output: null } });
  db.close();

  const reopened = await openIdbStore({ name });
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const ids = await reopened.failUnfinished('interrupted', 2000, (id, reason, salvage) => unreadableResponse(id, reason, salvage, 2000));
  expect(ids.sort()).toEqual(['good', 'no-output', 'null-response']);
  expect(warn).toHaveBeenCalledTimes(2);
  warn.mockRestore();
  expect(await reopened.get('good')).toMatchObject({ status: 'failed', error: { message: 'interrupted' } });
  expect(await reopened.get('null-response')).toMatchObject({ id: 'null-response', status: 'failed', model: 'unknown', created_at: 2000, error: { code: 'server_error' } });
  expect(await reopened.get('no-output')).toMatchObject({ status: 'failed', model: 'm', created_at: 5, output: [] });
  // Marked failed, so the next start does not meet them again.
  expect(await reopened.failUnfinished('again', 3000, () => { throw new Error('not called'); })).toEqual([]);
  reopened.close();
});

const turn = (id: string, previous: string | null): ResponseObject => ({ ...response(id, 'completed', 10), previous_response_id: previous });
const message = (id: string, text: string) => ({ type: 'message' as const, id, role: 'user' as const, status: 'completed' as const, content: [{ type: 'input_text' as const, text }] });

test('chain() follows the path through a branching thread, oldest first', async () => {
  await store.create(turn('a', null), [message('ia', 'A')]);
  await store.create(turn('b', 'a'), [message('ib', 'B')]);
  await store.create(turn('b2', 'a'), [message('ib2', 'B2')]); // a sibling branch at the same depth
  await store.create(turn('c', 'b'), [message('ic', 'C')]);
  await store.save(turn('a', null), [], undefined); // terminal: its (empty) output is indexed
  const chain = await store.chain('c');
  expect(chain?.turns.map((t) => [t.id, t.input.map((i) => i.id)])).toEqual([
    ['a', ['ia']],
    ['b', ['ib']],
    ['c', ['ic']],
  ]);
  expect(chain).toMatchObject({ last: { id: 'c' }, missing: null });
  expect(await store.chain('nope')).toBeUndefined();
  await store.delete('a');
  // The walk stops where the chain is broken, and says where.
  expect(await store.chain('c')).toMatchObject({ turns: [{ id: 'b' }, { id: 'c' }], missing: 'a' });
  // A turn with no items at all is read on its own, and the walk goes on through it.
  await store.create(turn('empty', 'c'), []);
  await store.create(turn('d', 'empty'), [message('id', 'D')]);
  expect((await store.chain('d'))?.turns.map((t) => t.id)).toEqual(['b', 'c', 'empty', 'd']);
});

test('a database of schema version 1 is migrated; its chains are still read (turn by turn) and continued', async () => {
  const { openDB } = await import('idb');
  const name = `store-v1-${process.pid}-${n++}`;
  const v1 = await openDB(name, 1, {
    upgrade(db) {
      const responses = db.createObjectStore('responses', { keyPath: 'id' });
      responses.createIndex('by-status', 'status');
      responses.createIndex('by-finished-at', 'finished_at');
      db.createObjectStore('items', { keyPath: ['response_id', 'side', 'position'] }).createIndex('by-item-id', 'item_id');
      db.createObjectStore('events', { keyPath: ['response_id', 'sequence_number'] });
    },
  });
  for (const [id, previous] of [['old1', null], ['old2', 'old1']] as const) {
    await v1.put('responses', { id, status: 'completed', finished_at: 10, response: turn(id, previous) });
    await v1.put('items', { response_id: id, side: 0, position: 0, item_id: `i-${id}`, item: message(`i-${id}`, id) });
  }
  v1.close();
  const migrated = await openIdbStore({ name });
  try {
    await migrated.create(turn('new3', 'old2'), [message('i-new3', 'new3')]);
    expect((await migrated.chain('new3'))?.turns.map((t) => t.input[0]?.id)).toEqual(['i-old1', 'i-old2', 'i-new3']);
    expect(await migrated.conversationIds()).toEqual([]);
  } finally {
    migrated.close();
  }
});

test('a terminal save appends its turn to a conversation that still exists, in the same transaction', async () => {
  await store.createConversation({ id: 'conv_1', created_at: 1, metadata: {} }, [message('seed', 'seed')]);
  const inConversation = (id: string): ResponseObject => ({ ...response(id, 'in_progress'), conversation: { id: 'conv_1' } });
  await store.create(inConversation('r1'), [message('in1', 'q')]);
  await store.save(inConversation('r1'), [], [message('in1', 'q')]); // not terminal: nothing appended
  expect((await store.conversationItems('conv_1'))?.map((i) => i.id)).toEqual(['seed']);
  await store.save({ ...inConversation('r1'), status: 'completed' }, [], [message('in1', 'q'), message('out1', 'a')]);
  expect((await store.conversationItems('conv_1'))?.map((i) => i.id)).toEqual(['seed', 'in1', 'out1']);
  expect(await store.deleteConversation('conv_1')).toBe(true);
  await store.create(inConversation('r2'), []);
  await store.save({ ...inConversation('r2'), status: 'completed' }, [], [message('in2', 'q')]);
  expect(await store.conversationItems('conv_1')).toBeUndefined();
  expect(await store.get('r2')).toMatchObject({ status: 'completed' });
});

test('a log of one-event rows (as written before batches) still replays, with recovery’s terminal row after it', async () => {
  const name = `store-legacy-log-${process.pid}-${n++}`;
  const writer = await openIdbStore({ name });
  await writer.create(response('legacy', 'in_progress', null, true), []);
  writer.close();
  const { openDB } = await import('idb');
  const db = await openDB(name);
  for (const seq of [0, 1, 2]) await db.put('events', { response_id: 'legacy', sequence_number: seq, event: event(seq) });
  db.close();
  const reopened = await openIdbStore({ name });
  try {
    expect((await reopened.events('legacy', -1)).map((e) => e.sequence_number)).toEqual([0, 1, 2]);
    expect((await reopened.events('legacy', 1)).map((e) => e.sequence_number)).toEqual([2]);
    await reopened.failUnfinished('interrupted', 2000, (id, reason, salvage) => unreadableResponse(id, reason, salvage, 2000));
    const log = await reopened.events('legacy', 0);
    expect(log.map((e) => e.type)).toEqual(['response.output_text.delta', 'response.output_text.delta', 'response.failed']);
    expect(await reopened.get('legacy')).toMatchObject({ status: 'failed' });
  } finally {
    reopened.close();
  }
});

test('batches: each append is one row, a read from the middle of a batch starts inside it; a finished background log is one row', async () => {
  const { openDB } = await import('idb');
  const db = await openDB(`store-test-${process.pid}-${n - 1}`);
  await store.create(response('bg', 'in_progress', null, true), []);
  await store.appendEvents('bg', [event(0), event(1), event(2)]);
  await store.appendEvents('bg', [event(3)]);
  await store.save(response('bg', 'in_progress', null, true), [event(4)]);
  expect(await db.count('events')).toBe(3);
  const all = [0, 1, 2, 3, 4, 5];
  for (const after of [-1, 0, 1, 2, 3]) expect((await store.events('bg', after)).map((e) => e.sequence_number)).toEqual(all.filter((s) => s > after && s < 5));
  await store.save(response('bg', 'completed', 10, true), [event(5)]);
  expect(await db.count('events')).toBe(1);
  for (const after of [-1, 0, 1, 2, 3, 4, 5]) expect((await store.events('bg', after)).map((e) => e.sequence_number)).toEqual(all.filter((s) => s > after));
  db.close();
});

test('a terminal save with dropLog drops the log in its transaction; one without keeps it', async () => {
  await store.create(response('fg', 'in_progress'), []);
  await store.appendEvents('fg', [event(0), event(1)]);
  await store.save(response('fg', 'in_progress'), [event(2)], undefined, { dropLog: true }); // not terminal: kept
  expect(await store.events('fg', -1)).toHaveLength(3);
  await store.save(response('fg', 'completed', 10), [event(3)], undefined, { dropLog: true });
  expect(await store.events('fg', -1)).toEqual([]);
  expect(await store.get('fg')).toMatchObject({ status: 'completed' });
  await store.create(response('kept', 'in_progress'), []);
  await store.save(response('kept', 'completed', 10), [event(0)]);
  expect(await store.events('kept', -1)).toHaveLength(1);
});
