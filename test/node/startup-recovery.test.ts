/**
 * The runtime always starts: a stored row it cannot read (written by a broken version, or a
 * value structured clone cannot rebuild) is skipped, logged and marked failed; the server
 * then serves every other response as usual.
 */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, expect, test, vi } from 'vitest';
import { closeAndCheck, localClient, type LocalClient } from '../support/local-client';

let local: LocalClient | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  if (local) await closeAndCheck(local);
  local = undefined;
});

/** A database with one finished response (`keep`), made by a first runtime. */
async function databaseWithOneResponse(): Promise<{ dbName: string; keep: string }> {
  const first = await localClient();
  const keep = (await first.client.responses.create({ model: 'test-scripted', input: 'keep me' })).id;
  await closeAndCheck(first);
  return { dbName: first.dbName, keep };
}

test('a row whose response is null (the "Cannot read properties of null" start failure) no longer stops the start', async () => {
  const { dbName, keep } = await databaseWithOneResponse();
  const db = await openDB(dbName);
  await db.put('responses', { id: 'resp_poisoned', status: 'in_progress', response: null });
  db.close();

  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  local = await localClient({ dbName });
  expect(warn.mock.calls.flat().join(' ')).toMatch(/resp_poisoned could not be read/);
  expect((await local.client.responses.retrieve(keep)).output_text).toBe('You said: keep me');
  const poisoned = await local.client.responses.retrieve('resp_poisoned');
  expect(poisoned).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
  expect(poisoned.error?.message).toMatch(/could not be read back/);
  expect((await local.client.responses.create({ model: 'test-scripted', input: 'next' })).status).toBe('completed');
});

test('a row IndexedDB fails to read is skipped, logged and replaced by a failed response', async () => {
  const { dbName, keep } = await databaseWithOneResponse();
  const db = await openDB(dbName);
  await db.put('responses', { id: 'resp_unreadable', status: 'in_progress', response: { id: 'resp_unreadable', output: [] } });
  db.close();

  // What Chromium does with a stored value its deserializer cannot rebuild: the read fails.
  const get = IDBObjectStore.prototype.get;
  vi.spyOn(IDBObjectStore.prototype, 'get').mockImplementation(function (this: IDBObjectStore, key: IDBValidKey | IDBKeyRange) {
    if (key === 'resp_unreadable') throw new DOMException('Unable to deserialize cloned data.', 'DataError');
    return get.call(this, key);
  });
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  local = await localClient({ dbName });
  expect(warn.mock.calls.flat().join(' ')).toMatch(/resp_unreadable could not be read \(DataError: Unable to deserialize/);
  vi.mocked(IDBObjectStore.prototype.get).mockRestore();

  expect((await local.client.responses.retrieve(keep)).status).toBe('completed');
  expect(await local.client.responses.retrieve('resp_unreadable')).toMatchObject({ status: 'failed', model: 'unknown', error: { code: 'server_error' } });
});
