/** The IndexedDB schema and its migrations, in one place. */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { StoredItem } from '../protocol/output-items';
import type { ResponseObject } from '../protocol/response-object';
import type { StreamEvent } from '../protocol/stream-events';
import type { ProviderRecord } from '../ports/providers';
import type { RouteRecord } from '../ports/routes';
import type { StoredBatch, StoredChunk, StoredFile, StoredStoreFile, StoredVectorStore } from '../ports/file-store';

/**
 * Where a response sits in its `previous_response_id` tree: the tree's first response and
 * how many turns lie before it. The items of a whole tree up to a depth are one range of the
 * items' `by-thread` index, so a turn reads its chain's context in one range read, not two
 * reads per turn. Absent on rows written before schema version 2 (and on their
 * descendants): those chains are read turn by turn.
 */
export interface ThreadKey {
  thread_root?: string;
  thread_depth?: number;
}

export interface ItemRow extends ThreadKey {
  /** The item's response's `previous_response_id` (threaded rows only): the chain's path is walked on the items alone. */
  thread_parent?: string | null;
  response_id: string;
  /** 0 = request input, 1 = model output: inputs sort before outputs within a response. */
  side: 0 | 1;
  position: number;
  item_id: string;
  item: StoredItem;
}

/** A batch of consecutive events of one response's log (event-rows.ts says why and how). */
export interface EventRow {
  response_id: string;
  /** The batch's first event's sequence number: the rows of a log sort in event order. */
  sequence_number: number;
  /** The batch as deflate-compressed JSON (an array of events). */
  packed?: Uint8Array<ArrayBuffer>;
  /** The batch uncompressed (no CompressionStream, or written by startup recovery). */
  events?: StreamEvent[];
  /**
   * One event, as rows were written before batches. The shapes differ only in these optional
   * fields, so no schema version marks the change: an older runtime opening this database still
   * starts (it just cannot replay the newer logs), and this one reads every shape.
   */
  event?: StreamEvent;
}

export interface ResponseRow extends ThreadKey {
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

export interface ConversationRow {
  id: string;
  created_at: number;
  metadata: Record<string, string>;
  /** The position the next appended item takes (positions only grow; deleted items leave gaps). */
  next_position: number;
}

export interface ConversationItemRow {
  conversation_id: string;
  position: number;
  item_id: string;
  item: StoredItem;
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
    /** `by-thread`: [thread_root, thread_depth]: a tree's items turn by turn (then by primary key: inputs, outputs). */
    indexes: { 'by-item-id': string; 'by-thread': [string, number] };
  };
  conversations: {
    key: string;
    value: ConversationRow;
  };
  /** Keyed [conversation_id, position]: a conversation's items in order are one range. */
  conversation_items: {
    key: [string, number];
    value: ConversationItemRow;
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
  /** Uploaded files (Files API), their metadata; the bytes are in `file_blobs` under the same id. */
  files: {
    key: string;
    value: StoredFile;
  };
  file_blobs: {
    key: string;
    value: Blob;
  };
  /** Text extracted from a file, by file id (or `sha256:…` of inline `file_data`). */
  file_texts: {
    key: string;
    value: { key: string; text: string };
  };
  vector_stores: {
    key: string;
    value: StoredVectorStore;
  };
  /** Keyed [vector_store_id, file_id]: a store's files are one range. */
  vector_store_files: {
    key: [string, string];
    value: StoredStoreFile;
    indexes: { 'by-file': string; 'by-status': string };
  };
  file_batches: {
    key: string;
    value: StoredBatch;
  };
  /** Keyed [vector_store_id, file_id, index]: a file's chunks in a store are one range. */
  chunks: {
    key: [string, string, number];
    value: StoredChunk;
  };
  /** A vector store's persisted search index (a cache of what its chunks hold), by store id. */
  search_indexes: {
    key: string;
    value: unknown;
  };
  /** Remote providers' settings, by id; a key only when it is kept (`keyStorage: 'persistent'`). */
  providers: {
    key: string;
    value: ProviderRecord;
  };
  /** Routes (a model of this device, then a provider's, under one name), by id. */
  routes: {
    key: string;
    value: RouteRecord;
  };
}

export const DB_VERSION = 7;

/** Runs every migration from `oldVersion` up to DB_VERSION, inside the upgrade transaction `tx`. */
export function migrate(
  db: IDBPDatabase<ResponsesDB>,
  oldVersion: number,
  tx: IDBPTransaction<ResponsesDB, StoreNames<ResponsesDB>[], 'versionchange'>,
): void {
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
  // Conversations (Conversations API) and the thread index that makes a chain one range read.
  // Existing rows have no thread fields, so they stay out of the indexes: nothing to backfill.
  if (oldVersion < 3) {
    db.createObjectStore('conversations', { keyPath: 'id' });
    const items = db.createObjectStore('conversation_items', { keyPath: ['conversation_id', 'position'] });
    items.createIndex('by-item-id', 'item_id');
    tx.objectStore('items').createIndex('by-thread', ['thread_root', 'thread_depth']);
  }
  // Files and vector stores (file search). Version 4 was set aside for remote providers, which landed after 5.
  if (oldVersion < 5) {
    db.createObjectStore('files', { keyPath: 'id' });
    db.createObjectStore('file_blobs');
    db.createObjectStore('file_texts', { keyPath: 'key' });
    db.createObjectStore('vector_stores', { keyPath: 'id' });
    const storeFiles = db.createObjectStore('vector_store_files', { keyPath: ['vector_store_id', 'file_id'] });
    storeFiles.createIndex('by-file', 'file_id');
    storeFiles.createIndex('by-status', 'status');
    db.createObjectStore('file_batches', { keyPath: 'id' });
    db.createObjectStore('chunks', { keyPath: ['vector_store_id', 'file_id', 'index'] });
    db.createObjectStore('search_indexes');
  }
  // Remote providers' settings. A database already at version 5 (files) has no such store: it
  // is made at 6 wherever it is missing.
  if (oldVersion < 6 && !db.objectStoreNames.contains('providers')) {
    db.createObjectStore('providers', { keyPath: 'id' });
  }
  // Routes: a new store, nothing to carry over.
  if (oldVersion < 7 && !db.objectStoreNames.contains('routes')) {
    db.createObjectStore('routes', { keyPath: 'id' });
  }
}
