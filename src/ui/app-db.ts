/**
 * The app's own IndexedDB database (separate from the server's store): conversations as
 * the sidebar shows them, and the settings. Works offline like everything else.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Conversation } from './saved-chat';
import type { Settings } from './settings';

export const APP_DB_NAME = 'local-responses-app';

interface AppDB extends DBSchema {
  conversations: { key: string; value: Conversation; indexes: { updatedAt: number } };
  /** One record, key `settings`. Other parts of the app (tools) may read it from here. */
  settings: { key: string; value: Settings };
}

export type AppDatabase = IDBPDatabase<AppDB>;

export function openAppDb(name = APP_DB_NAME): Promise<AppDatabase> {
  return openDB<AppDB>(name, 1, {
    upgrade(db) {
      const conversations = db.createObjectStore('conversations', { keyPath: 'id' });
      conversations.createIndex('updatedAt', 'updatedAt');
      db.createObjectStore('settings');
    },
  });
}

/** Newest first. */
export async function loadConversations(db: AppDatabase): Promise<Conversation[]> {
  const all = await db.getAllFromIndex('conversations', 'updatedAt');
  return all.reverse();
}

export async function saveConversation(db: AppDatabase, conversation: Conversation): Promise<void> {
  await db.put('conversations', conversation);
}

export async function deleteConversationRecord(db: AppDatabase, id: string): Promise<void> {
  await db.delete('conversations', id);
}

export const SETTINGS_KEY = 'settings';
