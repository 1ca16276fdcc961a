/** The IndexedDB schema and its migrations, in one place. */
import type { DBSchema, IDBPDatabase } from 'idb';
import type { StoredItem } from '../protocol/output-items';
import type { ResponseObject } from '../protocol/response-object';
import type { StreamEvent } from '../protocol/stream-events';

export interface ItemRow {
  response_id: string;
  /** 0 = request input, 1 = model output: inputs sort before outputs within a response. */
  side: 0 | 1;
  position: number;
  item_id: string;
  item: StoredItem;
}

export interface EventRow {
  response_id: string;
  sequence_number: number;
  event: StreamEvent;
}

export interface ResponseRow {
  id: string;
  status: ResponseObject['status'];
  /** Unix seconds when the response reached a terminal status; absent while it runs. */
  finished_at?: number;
  /**
   * When the row was created (ms, sub-ms precision), kept across saves: orders responses
   * created within the same second (`created_at` is whole seconds). Absent on rows
   * written before it existed; they sort by `created_at` alone.
   */
  stored_at?: number;
  response: ResponseObject;
}

export interface ResponsesDB extends DBSchema {
  responses: {
    key: string;
    value: ResponseRow;
    indexes: { 'by-status': string; 'by-finished-at': number };
  };
  items: {
    key: [string, number, number];
    value: ItemRow;
    indexes: { 'by-item-id': string };
  };
  events: {
    key: [string, number];
    value: EventRow;
  };
  /** Secret keys of this origin, by purpose (`reasoning`: see key-store.ts). Non-extractable CryptoKeys. */
  keys: {
    key: string;
    value: CryptoKey;
  };
}

export const DB_VERSION = 2;

/** Runs every migration from `oldVersion` up to DB_VERSION. */
export function migrate(db: IDBPDatabase<ResponsesDB>, oldVersion: number): void {
  if (oldVersion < 1) {
    const responses = db.createObjectStore('responses', { keyPath: 'id' });
    responses.createIndex('by-status', 'status');
    responses.createIndex('by-finished-at', 'finished_at');
    const items = db.createObjectStore('items', { keyPath: ['response_id', 'side', 'position'] });
    items.createIndex('by-item-id', 'item_id');
    db.createObjectStore('events', { keyPath: ['response_id', 'sequence_number'] });
  }
  if (oldVersion < 2) {
    db.createObjectStore('keys');
  }
}
