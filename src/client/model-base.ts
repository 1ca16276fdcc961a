/**
 * Where the runtime downloads real models (web-llm weights and model libraries) from. The
 * first of these that is set wins:
 *
 * 1. `StartLocalRuntimeOptions.modelBase`: an embedder's choice, in code;
 * 2. the stored setting, `localStorage['local-responses/model-base']`: a settings screen,
 *    a self-hoster's page or a test (before the page loads) sets it once for the origin
 *    (`setStoredModelBase`);
 * 3. none: web-llm's own sources (Hugging Face for weights, GitHub for model libraries).
 *
 * Never the page URL: web-llm fetches model *libraries* (wasm code run in our worker) from
 * the mirror, so a link must not be able to choose it — not even with `?test-models`.
 *
 * It is read when the runtime starts (a change applies from the next start, i.e. reload),
 * and made absolute against the page URL: the runtime worker's own URL is a script's.
 */
export const MODEL_BASE_STORAGE_KEY = 'local-responses/model-base';

export interface ModelBaseSources {
  option?: string | undefined;
  /** The page URL (`location.href`): relative settings are resolved against it, nothing more. */
  pageUrl: string;
  /** The stored setting, if any. */
  stored?: string | null | undefined;
}

export function resolveModelBase({ option, pageUrl, stored }: ModelBaseSources): string | undefined {
  const chosen = [option, stored].find((value): value is string => typeof value === 'string' && value.trim() !== '');
  return chosen === undefined ? undefined : new URL(chosen.trim(), pageUrl).href;
}

/** The stored setting (null when unset or when storage is unavailable). */
export function storedModelBase(): string | null {
  try {
    return globalThis.localStorage?.getItem(MODEL_BASE_STORAGE_KEY) ?? null;
  } catch {
    return null; // storage blocked (e.g. some privacy settings)
  }
}

/** Stores (or with `null`, clears) the model mirror for this origin; applies from the next start. */
export function setStoredModelBase(url: string | null): void {
  if (url === null) globalThis.localStorage.removeItem(MODEL_BASE_STORAGE_KEY);
  else globalThis.localStorage.setItem(MODEL_BASE_STORAGE_KEY, url);
}
