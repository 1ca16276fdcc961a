/**
 * The storage contract of `/v1/local/*` (local extensions, not OpenAI's API): what
 * `GET /v1/local/responses`, `GET /v1/local/storage` and `POST /v1/local/storage/prune`
 * answer, and the retention policy as it crosses the wire (snake_case, like the rest of
 * the API). The server answers with these shapes and the app parses them with the same
 * schemas. zod's mini build, as in local-status.ts: the UI bundles these.
 *
 * Answers are not strict (a newer runtime may add a field); the prune request is, so a
 * misspelt field is an error instead of a silently ignored limit.
 */
import * as z from 'zod/mini';

const count = () => z.number().check(z.int(), z.nonnegative());

/** How long stored responses are kept; null: no limit of that kind. */
export const RetentionWire = z.object({
  /** Conversations whose last response is older than this many days go. */
  max_age_days: z.nullable(z.number().check(z.positive())),
  /** Oldest conversations go until the stored total is at most this many bytes. */
  max_bytes: z.nullable(count()),
});
export type RetentionWire = z.infer<typeof RetentionWire>;

const ResponseStatus = z.enum(['queued', 'in_progress', 'completed', 'incomplete', 'cancelled', 'failed']);

/** One entry of `GET /v1/local/responses`. */
export const StoredResponse = z.object({
  object: z.literal('local.stored_response'),
  id: z.string(),
  /** Unix seconds. */
  created_at: z.number(),
  status: ResponseStatus,
  model: z.string(),
  previous_response_id: z.nullable(z.string()),
  /** The conversation it belongs to (`conversation` on create). Optional: older runtimes did not say. */
  conversation_id: z.optional(z.nullable(z.string())),
  /** Approximate bytes it takes: the response, its items and its event log, as JSON. */
  bytes: count(),
});
export type StoredResponse = z.infer<typeof StoredResponse>;

/** `GET /v1/local/responses` (OpenAI's cursor pagination: `after`, `limit` 1–100, `order`). */
export const StoredResponseList = z.object({
  object: z.literal('list'),
  data: z.array(StoredResponse),
  first_id: z.nullable(z.string()),
  last_id: z.nullable(z.string()),
  has_more: z.boolean(),
});
export type StoredResponseList = z.infer<typeof StoredResponseList>;

/** `GET /v1/local/storage`. */
export const StorageSummary = z.object({
  object: z.literal('local.storage'),
  responses: count(),
  /** `previous_response_id` trees: the unit retention deletes. */
  conversations: count(),
  bytes: count(),
  /** Uploaded files (Files API) and their bytes. Optional: older runtimes did not say. */
  files: z.optional(count()),
  file_bytes: z.optional(count()),
  /** Vector stores and what their chunks and indexes take. */
  vector_stores: z.optional(count()),
  vector_store_bytes: z.optional(count()),
  /** The policy in force in the running runtime. */
  retention: RetentionWire,
});
export type StorageSummary = z.infer<typeof StorageSummary>;

/**
 * Body of `POST /v1/local/storage/prune` (optional): with `retention`, that policy is in
 * force from now on in this runtime (until it stops; the next start takes its options
 * again) and is applied at once.
 */
export const PruneRequest = z.strictObject({ retention: z.optional(RetentionWire) });
export type PruneRequest = z.infer<typeof PruneRequest>;

/** `POST /v1/local/storage/prune`. */
export const PruneResult = z.object({
  object: z.literal('local.storage.pruned'),
  deleted: count(),
  bytes_freed: count(),
  retention: RetentionWire,
});
export type PruneResult = z.infer<typeof PruneResult>;
