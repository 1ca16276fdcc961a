/**
 * The search index of one vector store: keyword (BM25) over its chunks' text, and nearest
 * neighbours over their vectors when the store has an embedder. Implemented in
 * `tools/file-search/` (minisearch); the server keeps one per store it has searched, persisted
 * in the store's `search_indexes` row (see ports/file-store.ts).
 */

export interface IndexedChunk {
  fileId: string;
  /** The chunk's position in its file. */
  index: number;
  text: string;
  vector: Float32Array | null;
}

/** One chunk a retriever found, with its own score (BM25 points, or cosine similarity). */
export interface ChunkHit {
  fileId: string;
  index: number;
  score: number;
}

export interface KeywordMatch {
  hits: ChunkHit[];
  /** How many distinct terms the query had (BM25 sums one term's score per term). */
  terms: number;
}

export interface StoreIndex {
  /** The files the index covers, each with its number of chunks. */
  files(): ReadonlyMap<string, number>;
  /** Adds a file's chunks (replacing any it had); yields to the event loop while it works. */
  add(fileId: string, chunks: readonly IndexedChunk[]): Promise<void>;
  remove(fileId: string): void;
  /** The best `limit` keyword matches among the files `allow` accepts. */
  keyword(query: string, limit: number, allow: (fileId: string) => boolean): KeywordMatch;
  /** The `limit` chunks whose vectors are closest to `vector` (cosine), among the files `allow` accepts. */
  nearest(vector: Float32Array, limit: number, allow: (fileId: string) => boolean): ChunkHit[];
  /** Everything needed to restore the index, structured-cloneable (IndexedDB). */
  snapshot(): unknown;
}

/** Makes indexes; asynchronous so that the index's code can load at first use. */
export interface SearchIndexes {
  create(): Promise<StoreIndex>;
  /** The index a snapshot holds; null when it cannot be read (another version): rebuild from the chunks. */
  restore(snapshot: unknown): Promise<StoreIndex | null>;
}
