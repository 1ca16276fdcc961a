import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { expect, test, vi } from 'vitest';
import { loadConversations, loadSettings, openAppDb, saveConversation, saveSettings } from './app-db';
import { APP_DB_VERSION, SETTINGS_KEY } from './app-db-schema';
import { DEFAULT_SETTINGS } from './settings';

let n = 0;
const freshName = () => `app-db-test-${process.pid}-${n++}`;

test('a fresh database climbs the ladder to the current version with every store', async () => {
  const db = await openAppDb(freshName());
  expect(db.version).toBe(APP_DB_VERSION);
  expect([...db.objectStoreNames].sort()).toEqual(['conversations', 'settings']);
  expect([...db.transaction('conversations').store.indexNames]).toEqual(['updatedAt']);
  db.close();
});

test('settings saved before a setting existed load with its default', async () => {
  const name = freshName();
  const db = await openAppDb(name);
  await db.put('settings', { model: 'm', temperature: 0.2 }, SETTINGS_KEY);
  expect(await loadSettings(db)).toEqual({ ...DEFAULT_SETTINGS, model: 'm', temperature: 0.2 });
  await saveSettings(db, { ...DEFAULT_SETTINGS, webSearch: true });
  db.close();
  const again = await openAppDb(name);
  expect((await loadSettings(again)).webSearch).toBe(true);
  again.close();
});

test('settings of the app before retention existed (a version-1 database) load with the default retention, which then round-trips', async () => {
  const name = freshName();
  // Written the way the version-1 app did, independently of today's ladder.
  const old = await openDB(name, 1, {
    upgrade(db) {
      db.createObjectStore('conversations', { keyPath: 'id' }).createIndex('updatedAt', 'updatedAt');
      db.createObjectStore('settings');
    },
  });
  const { retention: _, ...before } = { ...DEFAULT_SETTINGS, model: 'm', webSearchProviderUrl: 'https://searx.example.org' };
  await old.put('settings', before, SETTINGS_KEY);
  old.close();

  const db = await openAppDb(name);
  const loaded = await loadSettings(db);
  expect(loaded).toEqual({ ...before, retention: { maxAgeDays: 90, maxBytes: 200_000_000 } });
  await saveSettings(db, { ...loaded, retention: { maxAgeDays: null, maxBytes: 50_000_000 } });
  db.close();
  const again = await openAppDb(name);
  expect(await loadSettings(again)).toEqual({ ...before, retention: { maxAgeDays: null, maxBytes: 50_000_000 } });
  again.close();
});

test('a stored retention that is not a valid policy loads as the default (the runtime deletes by it)', async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  const db = await openAppDb(freshName());
  for (const retention of [{ maxAgeDays: 0, maxBytes: null }, { maxAgeDays: 7, maxBytes: -1 }, { maxAgeDays: '7' }, null]) {
    await db.put('settings', { ...DEFAULT_SETTINGS, retention: retention as never }, SETTINGS_KEY);
    expect((await loadSettings(db)).retention).toEqual(DEFAULT_SETTINGS.retention);
  }
  expect(error).toHaveBeenCalledTimes(4);
  error.mockRestore();
  db.close();
});

test('conversations come newest first', async () => {
  const db = await openAppDb(freshName());
  for (const [id, updatedAt] of [['a', 1], ['c', 3], ['b', 2]] as const) {
    await saveConversation(db, { id, title: id, createdAt: 0, updatedAt, turns: [] });
  }
  expect((await loadConversations(db)).map((c) => c.id)).toEqual(['c', 'b', 'a']);
  db.close();
});
