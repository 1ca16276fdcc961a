/**
 * Where the runtime downloads real models (web-llm weights and model libraries) from. The
 * first of these that is set wins:
 *
 * 1. `StartLocalRuntimeOptions.modelBase`: an embedder's choice, in code;
 * 2. `?model-base=<url>` in the page URL, honoured only when test models are on (tests and
 *    benchmarks, `?test-models&model-base=/mirror/`): an ordinary link must not be able to
 *    point the app at someone else's model files;
 * 3. the stored setting, `localStorage['local-responses/model-base']`: a settings screen
 *    or a self-hoster's page sets it once for the origin (`setStoredModelBase`);
 * 4. none: web-llm's own sources (Hugging Face for weights, GitHub for model libraries).
 *
 * It is read when the runtime starts (a change applies from the next start, i.e. reload),
 * and made absolute against the page URL: the runtime worker's own URL is a script's.
 */
export const MODEL_BASE_STORAGE_KEY = 'local-responses/model-base';

export interface ModelBaseSources {
  option?: string | undefined;
  testModels: boolean;
  /** The page URL (`location.href`). */
  pageUrl: string;
  /** The stored setting, if any. */
  stored?: string | null | undefined;
}

export function resolveModelBase({ option, testModels, pageUrl, stored }: ModelBaseSources): string | undefined {
  const fromPage = testModels ? new URL(pageUrl).searchParams.get('model-base') : null;
  const chosen = [option, fromPage, stored].find((value): value is string => typeof value === 'string' && value.trim() !== '');
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
