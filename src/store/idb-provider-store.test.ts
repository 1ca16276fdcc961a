import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { expect, test } from 'vitest';
import { openIdbProviderStore } from './idb-provider-store';

const record = { id: 'lab', baseUrl: 'http://127.0.0.1:8080/v1', api: 'chat_completions' as const, concurrency: 4, keyStorage: 'persistent' as const, apiKey: 'sk-1', createdAt: 1 };

test('put, list, delete; a row that is not a provider is skipped', async () => {
  const name = `providers-${Date.now()}`;
  const store = await openIdbProviderStore({ name });
  await store.put(record);
  const db = await openDB(name);
  await db.put('providers', { id: 'junk', baseUrl: 3 });
  db.close();
  expect(await store.list()).toEqual([record]);
  expect(await store.delete('lab')).toBe(true);
  expect(await store.delete('lab')).toBe(false);
  store.close();
});

test('a database left at version 5 by a runtime without providers gets their store when opened', async () => {
  const name = `providers-v5-${Date.now()}`;
  const old = await openDB(name, 5, { upgrade: (db) => void db.createObjectStore('responses', { keyPath: 'id' }) });
  old.close();
  const store = await openIdbProviderStore({ name });
  await store.put(record);
  expect((await store.list()).map((r) => r.id)).toEqual(['lab']);
  store.close();
});
