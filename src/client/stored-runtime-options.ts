/**
 * Runtime options stored for the origin: the builtin tools' configuration (search
 * provider, private-network access, time limits), the retention of stored responses and the
 * CPU engine's threads. Set by
 * same-origin code only — a settings screen, a self-hoster's page, or a test before the
 * page loads (`page.addInitScript`) — and never by a URL: a link that opens the app must
 * not be able to point its searches at someone's server, open the private network to it,
 * or change its limits. `startLocalRuntime` options win over these.
 *
 * `localStorage['local-responses/runtime-options']`, JSON; read when the runtime starts (a
 * change applies from the next start). A value that does not parse is ignored, with a
 * console error: no stored value may keep the runtime from starting.
 */
// zod/mini: this module is on the page before `/v1` answers (the package's size budget).
import * as z from 'zod/mini';
import type { CpuEngineOptions, FileSearchOptions, RetentionPolicy, ToolsConfig } from '../protocol/runtime-options';

export const RUNTIME_OPTIONS_STORAGE_KEY = 'local-responses/runtime-options';

const positive = () => z.number().check(z.positive());
const positiveInt = () => z.int().check(z.positive());

const searchProvider = z.union([
  z.strictObject({ type: z.literal('wikipedia'), lang: z.optional(z.string()) }),
  z.strictObject({ type: z.literal('searxng'), baseUrl: z.url() }),
]);
const python = z.strictObject({
  timeLimitMs: z.optional(positive()),
  idleMs: z.optional(positive()),
  maxContainers: z.optional(positiveInt()),
  warmSpare: z.optional(z.boolean()),
  packageBaseUrl: z.optional(z.url()),
});
const webSearch = z.strictObject({
  provider: z.optional(searchProvider),
  allowPrivateNetwork: z.optional(z.boolean()),
  allowHosts: z.optional(z.array(z.string())),
  pageTokens: z.optional(positiveInt()),
  maxResults: z.optional(positiveInt()),
});

// A limit out of range (0 days, negative bytes) would delete everything at the next start.
const retention = z.strictObject({
  maxAgeDays: z.optional(z.nullable(positive())),
  maxBytes: z.optional(z.nullable(z.int().check(z.nonnegative()))),
});

// More threads than a browser could have cores buys nothing and costs a worker each.
const cpu = z.strictObject({ threads: z.optional(z.int().check(z.gte(1), z.lte(256))) });

const fileSearch = z.strictObject({ embeddingModel: z.optional(z.string().check(z.minLength(1), z.maxLength(256))) });

const storedRuntimeOptionsSchema = z.strictObject({
  retention: z.optional(retention),
  cpu: z.optional(cpu),
  fileSearch: z.optional(fileSearch),
  tools: z.optional(
    z.strictObject({ python: z.optional(z.union([python, z.literal(false)])), webSearch: z.optional(z.union([webSearch, z.literal(false)])) }),
  ),
});

export interface StoredRuntimeOptions {
  tools?: ToolsConfig;
  /** See `StartLocalRuntimeOptions.retention`. */
  retention?: Partial<RetentionPolicy>;
  /** See `StartLocalRuntimeOptions.cpu`. */
  cpu?: CpuEngineOptions;
  /** See `StartLocalRuntimeOptions.fileSearch`. */
  fileSearch?: FileSearchOptions;
}

/** The stored options (`{}` when unset, unreadable or invalid). */
export function storedRuntimeOptions(): StoredRuntimeOptions {
  let raw: string | null;
  try {
    raw = globalThis.localStorage?.getItem(RUNTIME_OPTIONS_STORAGE_KEY) ?? null;
  } catch {
    return {}; // storage blocked (e.g. some privacy settings)
  }
  if (raw === null) return {};
  try {
    return storedRuntimeOptionsSchema.parse(JSON.parse(raw)) as StoredRuntimeOptions;
  } catch (error) {
    console.error(`Ignoring localStorage['${RUNTIME_OPTIONS_STORAGE_KEY}']: it is not valid runtime options.`, error);
    return {};
  }
}

/** Stores (or with `null`, clears) the runtime options for this origin; they apply from the next start. */
export function setStoredRuntimeOptions(options: StoredRuntimeOptions | null): void {
  if (options === null) globalThis.localStorage.removeItem(RUNTIME_OPTIONS_STORAGE_KEY);
  else globalThis.localStorage.setItem(RUNTIME_OPTIONS_STORAGE_KEY, JSON.stringify(storedRuntimeOptionsSchema.parse(options)));
}
