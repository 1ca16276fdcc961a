/**
 * The app database's schema and its migrations, in one place (as src/store/idb-schema.ts
 * is for the server's store). A new version adds one `if (oldVersion < n)` step below and
 * bumps APP_DB_VERSION; a step never edits an earlier one, so a database of any older
 * version climbs the same ladder a fresh one does.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import type { Conversation } from './saved-chat';
import type { Settings } from './settings';

export interface AppDB extends DBSchema {
  conversations: { key: string; value: Conversation; indexes: { updatedAt: number } };
  /** One record, key {@link SETTINGS_KEY}. */
  settings: { key: string; value: Partial<Settings> };
}

export const APP_DB_VERSION = 1;

export const SETTINGS_KEY = 'settings';

/** Runs every migration from `oldVersion` up to APP_DB_VERSION (inside the upgrade transaction). */
export function migrateAppDb(db: IDBPDatabase<AppDB>, oldVersion: number): void {
  if (oldVersion < 1) {
    const conversations = db.createObjectStore('conversations', { keyPath: 'id' });
    conversations.createIndex('updatedAt', 'updatedAt');
    db.createObjectStore('settings');
  }
}
