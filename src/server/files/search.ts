/**
 * File search over vector stores: for each query, keyword (BM25) search always, and — in a
 * store whose chunks were embedded — nearest neighbours by the same embedding model, fused
 * by reciprocal rank fusion (rank-fusion.ts, where the 0–1 scores are defined). Only files
 * that completed and pass the attribute `filters` take part; results under
 * `score_threshold` are dropped; the best `max_num_results` are returned, whole chunks.
 * A query never mixes two models' vectors: each store's own model embeds it.
 */
import type { StoredVectorStore } from '../../ports/file-store';
import type { ChunkHit } from '../../ports/search-index';
import type { AttributeFilter, FileAttributes, HybridSearch, SearchResult } from '../../protocol/vector-stores';
import { describeError } from '../../shared/api-error';
import { matchesFilter } from './attribute-filter';
import type { FilesState } from './files-state';
import { fitTokens } from './ingestion';
import { fuse, keywordScores, vectorScores, type ScoredChunk } from './rank-fusion';

export interface SearchOptions {
  maxResults: number;
  filters: AttributeFilter | null;
  scoreThreshold: number;
  hybrid: HybridSearch;
  signal: AbortSignal;
}

/** A result with where its chunk is (for citations and tests). */
export interface FoundChunk extends SearchResult {
  vectorStoreId: string;
  chunkIndex: number;
}

export const DEFAULT_HYBRID: HybridSearch = { embedding_weight: 1, text_weight: 1 };

/** Candidates each retriever gives the fusion: more than asked for, so fusion can reorder. */
const candidates = (max: number) => Math.max(50, max * 4);

export async function searchStores(files: FilesState, stores: readonly StoredVectorStore[], queries: readonly string[], options: SearchOptions): Promise<FoundChunk[]> {
  const found: Array<ScoredChunk & { store: StoredVectorStore; filename: string; attributes: FileAttributes | null }> = [];
  for (const store of stores) {
    const rows = (await files.store.listStoreFiles(store.id)).filter((r) => r.status === 'completed' && (!options.filters || matchesFilter(options.filters, r.attributes)));
    if (rows.length === 0) continue;
    const allowed = new Map(rows.map((r) => [r.file_id, r]));
    const allow = (fileId: string) => allowed.has(fileId);
    const index = await files.indexes.get(store.id);
    const best = new Map<string, ScoredChunk>();
    for (const query of queries) {
      const keyword = index.keyword(query, candidates(options.maxResults), allow);
      const nearest = await nearestHits(files, store, query, options, (vector) => index.nearest(vector, candidates(options.maxResults), allow));
      const scored =
        nearest === null
          ? keywordScores(keyword.hits, keyword.terms)
          : options.hybrid.text_weight === 0
            ? vectorScores(nearest)
            : fuse([
              { hits: nearest, weight: options.hybrid.embedding_weight },
              { hits: keyword.hits, weight: options.hybrid.text_weight },
            ]);
      // Several queries: a chunk scores its best.
      for (const hit of scored) {
        const key = `${hit.fileId}#${hit.index}`;
        if ((best.get(key)?.score ?? -1) < hit.score) best.set(key, hit);
      }
    }
    for (const hit of best.values()) if (hit.score >= options.scoreThreshold) found.push({ ...hit, store, filename: '', attributes: allowed.get(hit.fileId)?.attributes ?? null });
  }
  found.sort((a, b) => b.score - a.score || (a.fileId < b.fileId ? -1 : a.fileId > b.fileId ? 1 : a.index - b.index));
  // Names and texts only for what is returned: a file read once, a store's chunks in one read.
  const names = new Map<string, string | null>();
  const top: typeof found = [];
  for (const hit of found) {
    if (top.length === options.maxResults) break;
    if (!names.has(hit.fileId)) names.set(hit.fileId, (await files.library.get(hit.fileId))?.filename ?? null);
    const filename = names.get(hit.fileId);
    if (filename) top.push({ ...hit, filename });
  }
  const texts = new Map<string, string>();
  for (const store of stores) {
    const keys = top.filter((h) => h.store.id === store.id).map((h) => [h.fileId, h.index] as const);
    if (keys.length) for (const chunk of await files.store.getChunks(store.id, keys)) texts.set(`${store.id}/${chunk.file_id}#${chunk.index}`, chunk.text);
  }
  const results: FoundChunk[] = [];
  for (const hit of top) {
    const chunk = { text: texts.get(`${hit.store.id}/${hit.fileId}#${hit.index}`) };
    if (chunk.text === undefined) continue;
    results.push({
      file_id: hit.fileId,
      filename: hit.filename,
      score: round(hit.score),
      attributes: hit.attributes,
      content: [{ type: 'text', text: chunk.text }],
      vectorStoreId: hit.store.id,
      chunkIndex: hit.index,
    });
  }
  await touch(files, stores);
  return results;
}

/**
 * Nearest neighbours of the query by the store's own embedding model, or null for keyword
 * search alone: the store has no model, its model is not in this runtime, or the model could
 * not run (logged; the keyword results still answer).
 */
async function nearestHits(files: FilesState, store: StoredVectorStore, query: string, options: SearchOptions, nearest: (v: Float32Array) => ChunkHit[]): Promise<ChunkHit[] | null> {
  if (!store.embedder || options.hybrid.embedding_weight === 0) return null;
  const embedder = files.embedder(store.embedder.model);
  if (!embedder) return null;
  try {
    const { vectors } = await embedder.embed([fitTokens(query, embedder.info.max_input_tokens)], { kind: 'query', signal: options.signal, truncate: true });
    const vector = vectors[0];
    if (!vector || vector.length !== store.embedder.dimensions) return null;
    return nearest(vector);
  } catch (err) {
    if (options.signal.aborted) throw err;
    console.warn(`File search in ${store.id} falls back to keywords: ${embedder.info.id} could not embed the query (${describeError(err)}).`);
    return null;
  }
}

function round(score: number): number {
  return Math.round(score * 1e4) / 1e4;
}

/** Searching a store is using it: `last_active_at` moves (and with it an `expires_after` deadline). */
async function touch(files: FilesState, stores: readonly StoredVectorStore[]): Promise<void> {
  const now = files.now();
  for (const store of stores) if (store.last_active_at < now) await files.store.putVectorStore({ ...store, last_active_at: now }).catch(() => undefined);
}
