/**
 * The storage port of the Files and Vector Stores APIs: uploaded files (their bytes as
 * Blobs), the text extracted from them, vector stores, which files each holds, file batches,
 * the chunks a file was cut into (with their vectors), and each store's persisted search index.
 * Implemented on IndexedDB (`store/idb-file-store.ts`); each method is one transaction.
 *
 * Chunks are the truth a store's index is built from: the index snapshot is a cache that
 * names the files it covers, so one saved before a crash is completed from the chunks.
 */
import type { FilePurpose } from '../protocol/files';
import type { ChunkingStatic, FileAttributes, StoreFileStatus, VectorStoreExpiresAfter } from '../protocol/vector-stores';

export interface StoredFile {
  id: string;
  filename: string;
  bytes: number;
  /** Unix seconds. */
  created_at: number;
  purpose: FilePurpose;
  expires_at: number | null;
  /** The part's `Content-Type` as uploaded (a hint for text extraction; the name decides first). */
  content_type: string;
  /** When it was stored (ms, sub-ms precision): orders files made within the same second. */
  stored_at: number;
}

/** Which embedding model made a store's vectors, and how long they are: a query is embedded by the same. */
export interface StoreEmbedder {
  model: string;
  dimensions: number;
}

export interface StoredVectorStore {
  id: string;
  name: string;
  description: string | null;
  created_at: number;
  last_active_at: number;
  metadata: Record<string, string> | null;
  expires_after: VectorStoreExpiresAfter | null;
  /** Null: keyword search only (no embedding model was set when the store was made). */
  embedder: StoreEmbedder | null;
  /** When it was stored (ms, sub-ms precision): orders stores made within the same second. */
  stored_at: number;
}

export interface StoredStoreFile {
  vector_store_id: string;
  file_id: string;
  created_at: number;
  status: StoreFileStatus;
  last_error: { code: 'server_error' | 'unsupported_file' | 'invalid_file'; message: string } | null;
  usage_bytes: number;
  attributes: FileAttributes | null;
  chunking: ChunkingStatic;
  /** The batch that attached it last, if any. */
  batch_id: string | null;
  /** How many chunks it was cut into (0 until it completes). */
  chunk_count: number;
  /** When it was attached (ms, sub-ms precision): orders files attached within the same second. */
  stored_at: number;
}

export interface StoredBatch {
  id: string;
  vector_store_id: string;
  created_at: number;
  /** `cancel` was called: its files still in progress end `cancelled`. */
  cancelled: boolean;
}

export interface StoredChunk {
  vector_store_id: string;
  file_id: string;
  /** 0-based position of the chunk in its file. */
  index: number;
  text: string;
  /** L2-normalised embedding, when the store has an embedder. */
  vector: Float32Array | null;
}

export interface FileStore {
  /** Stores the file's metadata and bytes (the Blob is written as it is, never read here). */
  putFile(file: StoredFile, blob: Blob): Promise<void>;
  getFile(id: string): Promise<StoredFile | undefined>;
  fileBlob(id: string): Promise<Blob | undefined>;
  /** Every file, oldest first. */
  listFiles(): Promise<StoredFile[]>;
  /** Removes the file, its bytes and its extracted text. False when it did not exist. */
  deleteFile(id: string): Promise<boolean>;

  /** Text extracted from a file (`key`: its id, or a content hash for inline `file_data`). */
  getText(key: string): Promise<string | undefined>;
  putText(key: string, text: string): Promise<void>;

  putVectorStore(store: StoredVectorStore): Promise<void>;
  getVectorStore(id: string): Promise<StoredVectorStore | undefined>;
  listVectorStores(): Promise<StoredVectorStore[]>;
  /** Removes the store with its file rows, chunks, batches and index. False when it did not exist. */
  deleteVectorStore(id: string): Promise<boolean>;

  putStoreFile(row: StoredStoreFile): Promise<void>;
  getStoreFile(storeId: string, fileId: string): Promise<StoredStoreFile | undefined>;
  /** A store's file rows, in the order they were attached. */
  listStoreFiles(storeId: string): Promise<StoredStoreFile[]>;
  /** Every store row that holds `fileId`. */
  storesOfFile(fileId: string): Promise<StoredStoreFile[]>;
  /** Every file row still `in_progress`, in any store (resumed at start). */
  unfinishedStoreFiles(): Promise<StoredStoreFile[]>;
  /** Detaches the file from the store: its row and chunks go. False when it was not attached. */
  deleteStoreFile(storeId: string, fileId: string): Promise<boolean>;

  putBatch(batch: StoredBatch): Promise<void>;
  getBatch(id: string): Promise<StoredBatch | undefined>;

  /**
   * Ends a file's ingestion in one transaction: its row becomes `row` (completed or failed)
   * and its chunks `chunks` — only while the stored row is still `in_progress` (not detached,
   * cancelled or deleted meanwhile). Returns whether it was written.
   */
  finishStoreFile(row: StoredStoreFile, chunks: StoredChunk[]): Promise<boolean>;
  /** Chunks by [file id, index] (missing ones are left out). */
  getChunks(storeId: string, keys: ReadonlyArray<readonly [string, number]>): Promise<StoredChunk[]>;
  /** A file's chunks in a store, in order. */
  fileChunks(storeId: string, fileId: string): Promise<StoredChunk[]>;

  /** The store's persisted search index (see `ports/search-index.ts`), if saved. */
  getIndex(storeId: string): Promise<unknown>;
  putIndex(storeId: string, snapshot: unknown): Promise<void>;
}
