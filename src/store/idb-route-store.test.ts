import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { expect, test } from 'vitest';
import { openIdbRouteStore } from './idb-route-store';
import { openIdbProviderStore } from './idb-provider-store';
import { openIdbStore } from './idb-store';

const record = { id: 'auto', local: 'qwen3-0.6b', remote: 'lab/big', prefer: 'local' as const, createdAt: 1 };

test('put, list, delete; a row that is not a route is skipped', async () => {
  const name = `routes-${Date.now()}`;
  const store = await openIdbRouteStore({ name });
  await store.put(record);
  const db = await openDB(name);
  await db.put('routes', { id: 'junk', local: 3 });
  db.close();
  expect(await store.list()).toEqual([record]);
  expect(await store.delete('auto')).toBe(true);
  expect(await store.delete('auto')).toBe(false);
  store.close();
});

test('a database at version 6 (providers, responses) keeps its rows and gets the routes store when opened', async () => {
  const name = `routes-v6-${Date.now()}`;
  const v6 = await openDB(name, 6, {
    upgrade: (db) => {
      db.createObjectStore('responses', { keyPath: 'id' });
      db.createObjectStore('providers', { keyPath: 'id' });
    },
  });
  await v6.put('providers', { id: 'lab', baseUrl: 'http://127.0.0.1:8080/v1', api: 'chat_completions', concurrency: 4, keyStorage: null, createdAt: 1 });
  v6.close();
  const routes = await openIdbRouteStore({ name });
  await routes.put(record);
  expect(await routes.list()).toEqual([record]);
  const providers = await openIdbProviderStore({ name });
  expect((await providers.list()).map((p) => p.id)).toEqual(['lab']);
  providers.close();
  routes.close();
});

test('a database made from scratch by the response store has the routes store too', async () => {
  const name = `routes-fresh-${Date.now()}`;
  const responses = await openIdbStore({ name });
  const routes = await openIdbRouteStore({ name });
  expect(await routes.list()).toEqual([]);
  routes.close();
  responses.close();
});
