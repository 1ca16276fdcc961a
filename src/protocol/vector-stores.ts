/**
 * The Vector Stores API's wire shapes, as OpenAI's (`openai/resources/vector-stores`): the
 * request bodies (validated, bounded) and the objects answered — vector stores, their files,
 * file batches, search results — plus attribute `filters` and `ranking_options`, which the
 * Responses `file_search` tool shares.
 */
import { z } from 'zod';
import { Metadata } from './metadata';

/** OpenAI's chunking bounds: 100–4096 tokens a chunk, overlap at most half of it. */
export const MIN_CHUNK_TOKENS = 100;
export const MAX_CHUNK_TOKENS = 4096;
/** `auto`: what OpenAI uses, 800-token chunks overlapping by 400. */
export const AUTO_CHUNKING = { max_chunk_size_tokens: 800, chunk_overlap_tokens: 400 } as const;
/** Files one batch may attach (OpenAI's limit). */
export const MAX_BATCH_FILES = 2000;
/** Files one create may attach with `file_ids` (OpenAI's limit). */
export const MAX_CREATE_FILE_IDS = 500;

export interface ChunkingStatic {
  max_chunk_size_tokens: number;
  chunk_overlap_tokens: number;
}

const StaticChunking = z
  .strictObject({
    max_chunk_size_tokens: z.number().int().min(MIN_CHUNK_TOKENS).max(MAX_CHUNK_TOKENS),
    chunk_overlap_tokens: z.number().int().min(0),
  })
  .refine((s) => s.chunk_overlap_tokens <= s.max_chunk_size_tokens / 2, {
    message: 'chunk_overlap_tokens must not exceed half of max_chunk_size_tokens.',
    path: ['chunk_overlap_tokens'],
  });

export const ChunkingStrategy = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('auto') }),
  z.strictObject({ type: z.literal('static'), static: StaticChunking }),
]);
export type ChunkingStrategy = z.infer<typeof ChunkingStrategy>;

/** The strategy as chunks are cut: `auto` resolves to OpenAI's defaults. */
export function resolveChunking(strategy: ChunkingStrategy | undefined | null): ChunkingStatic {
  return strategy?.type === 'static' ? { ...strategy.static } : { ...AUTO_CHUNKING };
}

/** A file's attributes: up to 16 keys of up to 64 characters; strings up to 512 characters. */
export type FileAttributes = Record<string, string | number | boolean>;
export const FileAttributes = z.custom<FileAttributes>().superRefine((value, ctx) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.addIssue({ code: 'invalid_type', expected: 'object', input: value });
    return;
  }
  const entries = Object.entries(value);
  if (entries.length > 16) ctx.addIssue({ code: 'custom', input: value, message: 'attributes may have at most 16 keys.' });
  for (const [key, v] of entries) {
    if (key.length > 64) ctx.addIssue({ code: 'custom', input: value, message: `attribute keys may be at most 64 characters long, but '${key.slice(0, 64)}…' has ${key.length}.` });
    else if (typeof v === 'string' ? v.length > 512 : typeof v !== 'number' && typeof v !== 'boolean')
      ctx.addIssue({ code: 'custom', input: v, path: [key], message: 'an attribute is a string of at most 512 characters, a number or a boolean.' });
  }
});

/** OpenAI's `ComparisonFilter`. */
export const ComparisonFilter = z.strictObject({
  key: z.string().min(1).max(64),
  type: z.enum(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin']),
  value: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()])).max(1000)]),
});
export type ComparisonFilter = z.infer<typeof ComparisonFilter>;
export type CompoundFilter = { type: 'and' | 'or'; filters: Array<ComparisonFilter | CompoundFilter> };
export type AttributeFilter = ComparisonFilter | CompoundFilter;

/** OpenAI's `CompoundFilter`, nested at most 8 levels (deeper is never needed and costs every search). */
function compound(depth: number): z.ZodType<CompoundFilter> {
  const inner: z.ZodType<ComparisonFilter | CompoundFilter> = depth >= 8 ? ComparisonFilter : z.union([ComparisonFilter, z.lazy(() => compound(depth + 1))]);
  return z.strictObject({ type: z.enum(['and', 'or']), filters: z.array(inner).min(1).max(100) });
}
export const AttributeFilter: z.ZodType<AttributeFilter> = z.union([ComparisonFilter, compound(1)]);

/** Weights of the reciprocal rank fusion of embedding and keyword matches. */
export const HybridSearch = z.strictObject({
  embedding_weight: z.number().min(0).max(100),
  text_weight: z.number().min(0).max(100),
});
export type HybridSearch = z.infer<typeof HybridSearch>;

export const RankingOptions = z.strictObject({
  ranker: z.enum(['none', 'auto', 'default-2024-11-15']).optional(),
  score_threshold: z.number().min(0).max(1).optional(),
  /** Also accepted here (the `file_search` tool has it): how keyword and embedding matches are fused. */
  hybrid_search: HybridSearch.optional(),
});
export type RankingOptions = z.infer<typeof RankingOptions>;

export const VectorStoreExpiresAfter = z.strictObject({ anchor: z.literal('last_active_at'), days: z.number().int().min(1).max(365) });
export type VectorStoreExpiresAfter = z.infer<typeof VectorStoreExpiresAfter>;

const FileId = z.string().min(1).max(128);

export const VectorStoreCreateRequest = z.strictObject({
  name: z.string().max(256).optional(),
  description: z.string().max(512).optional(),
  file_ids: z.array(FileId).max(MAX_CREATE_FILE_IDS).optional(),
  chunking_strategy: ChunkingStrategy.optional(),
  metadata: Metadata.nullish(),
  expires_after: VectorStoreExpiresAfter.optional(),
});

export const VectorStoreUpdateRequest = z.strictObject({
  name: z.string().max(256).nullish(),
  metadata: Metadata.nullish(),
  expires_after: VectorStoreExpiresAfter.nullish(),
});

export const StoreFileCreateRequest = z.strictObject({
  file_id: FileId,
  attributes: FileAttributes.nullish(),
  chunking_strategy: ChunkingStrategy.optional(),
});

export const StoreFileUpdateRequest = z.strictObject({ attributes: FileAttributes.nullable() });

/** `file_ids` and `files` are mutually exclusive (checked by the route, which names both). */
export const BatchCreateRequest = z.strictObject({
    file_ids: z.array(FileId).min(1).max(MAX_BATCH_FILES).optional(),
    files: z
      .array(z.strictObject({ file_id: FileId, attributes: FileAttributes.nullish(), chunking_strategy: ChunkingStrategy.optional() }))
      .min(1)
      .max(MAX_BATCH_FILES)
      .optional(),
    attributes: FileAttributes.nullish(),
    chunking_strategy: ChunkingStrategy.optional(),
});

export const SearchRequest = z.strictObject({
  query: z.union([z.string().min(1).max(4096), z.array(z.string().min(1).max(4096)).min(1).max(10)]),
  filters: AttributeFilter.nullish(),
  max_num_results: z.number().int().min(1).max(50).optional(),
  ranking_options: RankingOptions.optional(),
  rewrite_query: z.boolean().optional(),
});
export type SearchRequest = z.infer<typeof SearchRequest>;

export type StoreFileStatus = 'in_progress' | 'completed' | 'cancelled' | 'failed';

export interface FileCounts {
  in_progress: number;
  completed: number;
  failed: number;
  cancelled: number;
  total: number;
}

export interface VectorStoreObject {
  id: string;
  object: 'vector_store';
  created_at: number;
  name: string;
  description: string | null;
  usage_bytes: number;
  file_counts: FileCounts;
  status: 'expired' | 'in_progress' | 'completed';
  expires_after: VectorStoreExpiresAfter | null;
  expires_at: number | null;
  last_active_at: number | null;
  metadata: Record<string, string> | null;
}

export interface VectorStoreFileObject {
  id: string;
  object: 'vector_store.file';
  created_at: number;
  vector_store_id: string;
  status: StoreFileStatus;
  last_error: { code: 'server_error' | 'unsupported_file' | 'invalid_file'; message: string } | null;
  usage_bytes: number;
  attributes: FileAttributes | null;
  chunking_strategy: { type: 'static'; static: ChunkingStatic };
}

export interface FileBatchObject {
  id: string;
  object: 'vector_store.files_batch';
  created_at: number;
  vector_store_id: string;
  status: StoreFileStatus;
  file_counts: FileCounts;
}

export interface SearchResult {
  file_id: string;
  filename: string;
  /** 0–1: 1 is a chunk ranked first by every retriever the search used. */
  score: number;
  attributes: FileAttributes | null;
  content: Array<{ type: 'text'; text: string }>;
}

export interface SearchResultsPage {
  object: 'vector_store.search_results.page';
  search_query: string[];
  data: SearchResult[];
  has_more: false;
  next_page: null;
}
