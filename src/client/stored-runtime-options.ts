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
import { z } from 'zod';
import type { CpuEngineOptions } from '../engine/cpu-threads';
import type { RetentionPolicy } from '../server/retention';
import type { ToolsConfig } from '../tools/tools-config';

export const RUNTIME_OPTIONS_STORAGE_KEY = 'local-responses/runtime-options';

const searchProvider = z.union([
  z.object({ type: z.literal('wikipedia'), lang: z.string().optional() }).strict(),
  z.object({ type: z.literal('searxng'), baseUrl: z.url() }).strict(),
]);
const python = z
  .object({
    timeLimitMs: z.number().positive().optional(),
    idleMs: z.number().positive().optional(),
    maxContainers: z.number().int().positive().optional(),
    warmSpare: z.boolean().optional(),
    packageBaseUrl: z.url().optional(),
  })
  .strict();
const webSearch = z
  .object({
    provider: searchProvider.optional(),
    allowPrivateNetwork: z.boolean().optional(),
    allowHosts: z.array(z.string()).optional(),
    pageTokens: z.number().int().positive().optional(),
    maxResults: z.number().int().positive().optional(),
  })
  .strict();

// A limit out of range (0 days, negative bytes) would delete everything at the next start.
const retention = z
  .object({
    maxAgeDays: z.number().positive().nullable().optional(),
    maxBytes: z.number().int().nonnegative().nullable().optional(),
  })
  .strict();

// More threads than a browser could have cores buys nothing and costs a worker each.
const cpu = z.object({ threads: z.number().int().min(1).max(256).optional() }).strict();

const storedRuntimeOptionsSchema = z
  .object({
    retention: retention.optional(),
    cpu: cpu.optional(),
    tools: z.object({ python: z.union([python, z.literal(false)]).optional(), webSearch: z.union([webSearch, z.literal(false)]).optional() }).strict().optional(),
  })
  .strict();

export interface StoredRuntimeOptions {
  tools?: ToolsConfig;
  /** See `StartLocalRuntimeOptions.retention`. */
  retention?: Partial<RetentionPolicy>;
  /** See `StartLocalRuntimeOptions.cpu`. */
  cpu?: CpuEngineOptions;
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
