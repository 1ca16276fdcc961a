import 'fake-indexeddb/auto';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { ResponseObject } from '../protocol/response-object';
import type { StreamEvent } from '../protocol/stream-events';
import { initialResponse, unreadableResponse } from '../server/response-factory';
import { openIdbStore } from './idb-store';
import type { ResponseStore } from './response-store';

let store: ResponseStore;
let n = 0;
beforeEach(async () => {
  store = await openIdbStore({ name: `store-test-${process.pid}-${n++}` });
});
afterEach(() => store.close());

function response(id: string, status: ResponseObject['status'], completedAt: number | null = null): ResponseObject {
  return { ...initialResponse(id, { model: 'm' }, status, 1000), completed_at: completedAt };
}
const event = (seq: number): StreamEvent => ({ type: 'response.output_text.delta', sequence_number: seq, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'x', logprobs: [] });

test('event logs of responses finished before the cutoff are pruned, others kept', async () => {
  await store.create(response('old', 'in_progress'), []);
  await store.create(response('new', 'in_progress'), []);
  await store.create(response('running', 'in_progress'), []);
  await store.save(response('old', 'completed', 100), [event(0), event(1)]);
  await store.save(response('new', 'completed', 5000), [event(0)]);
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
