/**
 * Scores of file search, 0–1, so that `score_threshold` means something:
 * - keyword alone (a store without an embedding model): BM25 points per query term,
 *   saturated, `s / (s + K)` with `s` the match's BM25 score over its query's term count. A
 *   chunk that matches every term well scores ~0.6–0.8, one weak term ~0.2;
 * - embeddings alone: the cosine similarity, clamped at 0;
 * - both (hybrid): reciprocal rank fusion (Cormack, Clarke & Büttcher, 2009), weighted by
 *   `ranking_options.hybrid_search` — `Σ w / (60 + rank)` — divided by its largest possible
 *   value, so a chunk ranked first by both retrievers scores 1 and one found by a single
 *   retriever at most its weight's share.
 */
import type { ChunkHit } from '../../ports/search-index';

/** Cormack et al.'s constant. */
export const RRF_K = 60;
/** BM25 points a query term typically brings a chunk that matches it (minisearch's BM25+ defaults). */
export const KEYWORD_SATURATION = 4;

export interface ScoredChunk {
  fileId: string;
  index: number;
  score: number;
}

const key = (hit: { fileId: string; index: number }) => `${hit.fileId}#${hit.index}`;

export function keywordScores(hits: readonly ChunkHit[], terms: number): ScoredChunk[] {
  return hits.map((hit) => {
    const perTerm = hit.score / Math.max(1, terms);
    return { fileId: hit.fileId, index: hit.index, score: perTerm / (perTerm + KEYWORD_SATURATION) };
  });
}

export function vectorScores(hits: readonly ChunkHit[]): ScoredChunk[] {
  return hits.map((hit) => ({ fileId: hit.fileId, index: hit.index, score: Math.max(0, Math.min(1, hit.score)) }));
}

/** Weighted reciprocal rank fusion of ranked lists (best first), normalised to 0–1. */
export function fuse(lists: ReadonlyArray<{ hits: readonly ChunkHit[]; weight: number }>): ScoredChunk[] {
  const total = lists.reduce((sum, l) => sum + l.weight, 0);
  if (total <= 0) return [];
  const fused = new Map<string, ScoredChunk>();
  for (const { hits, weight } of lists) {
    hits.forEach((hit, rank) => {
      const k = key(hit);
      const entry = fused.get(k) ?? { fileId: hit.fileId, index: hit.index, score: 0 };
      entry.score += weight / (RRF_K + rank + 1);
      fused.set(k, entry);
    });
  }
  const best = total / (RRF_K + 1);
  return [...fused.values()].map((c) => ({ ...c, score: Math.min(1, c.score / best) })).sort((a, b) => b.score - a.score);
}
