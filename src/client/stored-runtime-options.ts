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
import type { CpuEngineOptions, FileSearchOptions, RetentionPolicy, ToolsConfig } from '../protocol/runtime-options';
import { storedRuntimeOptionsSchema } from '../protocol/stored-runtime-options';

export const RUNTIME_OPTIONS_STORAGE_KEY = 'local-responses/runtime-options';

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
