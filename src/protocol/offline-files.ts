/**
 * What the service worker says about the files the app starts without (pyodide, the CPU
 * engine's WebAssembly, lazily loaded code): which are kept offline already. The page
 * asks with a message and the service worker answers every page of the origin as files
 * arrive (src/pwa/offline-files.ts, src/client/offline-files.ts).
 *
 * A page↔service worker message rather than a field of `GET /v1/local/status`: the service
 * worker alone holds the list (its build wrote it in) and the cache; the runtime worker,
 * which answers `/v1/local/status`, has neither, and the state matters before (and
 * without) a runtime: a tab that is not the leader shows it too.
 *
 * zod's mini build, as local-status.ts: the page bundles it.
 */
import * as z from 'zod/mini';

/** The feature a deferred file belongs to: what the app cannot do offline until it is kept. */
export const OfflineFeature = z.enum(['python', 'cpu-engine', 'gpu-engine', 'web-search', 'file-search', 'programs', 'other']);
export type OfflineFeature = z.infer<typeof OfflineFeature>;

const count = () => z.number().check(z.int(), z.nonnegative());

export const OfflineFilesStatus = z.object({
  /** `caching`: files are being fetched; `done`: all are kept; `paused`: a fetch failed (offline?), retried on the next request. */
  state: z.enum(['caching', 'done', 'paused']),
  files: count(),
  cachedFiles: count(),
  /** Uncompressed sizes, as stored. */
  bytes: count(),
  cachedBytes: count(),
  /** Features with a file still missing, in a fixed order. */
  pending: z.array(OfflineFeature),
  /** Why the last fetch failed (`paused`). */
  error: z.optional(z.string()),
});
export type OfflineFilesStatus = z.infer<typeof OfflineFilesStatus>;
