/**
 * The app's own IndexedDB database (separate from the server's store): the settings, and
 * the chats older versions kept here — chats are server conversations now, and
 * legacy-chats.ts moves these onto the server once (the store stays, so a database of any
 * version opens). Schema and migrations: app-db-schema.ts.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { APP_DB_VERSION, migrateAppDb, SETTINGS_KEY, type AppDB } from './app-db-schema';
import type { Conversation } from './saved-chat';
import { DEFAULT_SETTINGS, retentionFrom, type Settings } from './settings';

export const APP_DB_NAME = 'local-responses-app';

export type AppDatabase = IDBPDatabase<AppDB>;

export function openAppDb(name = APP_DB_NAME): Promise<AppDatabase> {
  return openDB<AppDB>(name, APP_DB_VERSION, {
    upgrade: (db, oldVersion) => migrateAppDb(db, oldVersion),
  });
}

/** Chats saved by older versions, newest first. */
export async function loadConversations(db: AppDatabase): Promise<Conversation[]> {
  const all = await db.getAllFromIndex('conversations', 'updatedAt');
  return all.reverse();
}

/** How older versions saved a chat (kept for the migration's tests). */
export async function saveConversation(db: AppDatabase, conversation: Conversation): Promise<void> {
  await db.put('conversations', conversation);
}

export async function deleteConversationRecord(db: AppDatabase, id: string): Promise<void> {
  await db.delete('conversations', id);
}

/**
 * The stored settings over the defaults: a setting added since they were saved gets its
 * default. The retention is checked: it goes to the runtime, which deletes by it.
 */
export async function loadSettings(db: AppDatabase): Promise<Settings> {
  const stored = await db.get('settings', SETTINGS_KEY);
  return { ...DEFAULT_SETTINGS, ...stored, retention: retentionFrom(stored?.retention) };
}

export async function saveSettings(db: AppDatabase, settings: Settings): Promise<void> {
  await db.put('settings', settings, SETTINGS_KEY);
}
