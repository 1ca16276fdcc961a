/**
 * Searching the runtime's vector stores, as a tool asks for it: the server's file store
 * (`server/files/`) implements it and hands it to tools through `ToolHost`, so the
 * `file_search` tool needs nothing of the server but this.
 */
import type { AttributeFilter, HybridSearch, SearchResult } from '../protocol/vector-stores';

export interface VectorSearchOptions {
  maxResults: number;
  filters: AttributeFilter | null;
  scoreThreshold: number;
  /** Weights of keyword and vector ranks; null: the server's default. */
  hybrid: HybridSearch | null;
  signal: AbortSignal;
}

/** A passage found, and where its chunk is (a passage shown twice keeps one source number). */
export interface FoundPassage extends SearchResult {
  vectorStoreId: string;
  chunkIndex: number;
}

export interface VectorSearchPort {
  /** Whether the vector store exists. */
  hasStore(id: string): Promise<boolean>;
  /** The best passages of the stores for the queries (stores that no longer exist are skipped). */
  search(storeIds: readonly string[], queries: readonly string[], options: VectorSearchOptions): Promise<FoundPassage[]>;
}
