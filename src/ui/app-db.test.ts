import 'fake-indexeddb/auto';
import { expect, test } from 'vitest';
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

test('conversations come newest first', async () => {
  const db = await openAppDb(freshName());
  for (const [id, updatedAt] of [['a', 1], ['c', 3], ['b', 2]] as const) {
    await saveConversation(db, { id, title: id, createdAt: 0, updatedAt, turns: [] });
  }
  expect((await loadConversations(db)).map((c) => c.id)).toEqual(['c', 'b', 'a']);
  db.close();
});
