/**
 * What a failed wllama load is told with: why its wasm did not start, and how full the
 * origin's storage was when a download ran out of quota. Kept apart from the engine: they
 * only read the network and the storage estimate, never the engine's state.
 */
type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * What is wrong with `wasmUrl`, in a few words, or null when nothing is (or it cannot be
 * asked): fetched and validated, so a wasm that is missing, refused or not one this browser
 * can compile (a truncated file, an HTML page, a build with features it lacks) is told
 * apart from an engine that had its wasm and still did not start. Only asked after a load
 * timed out, so reading the file again costs nothing on the way to a working load.
 */
export async function probeWasm(wasmUrl: string, fetchFn: FetchLike | undefined): Promise<string | null> {
  const fetcher = fetchFn ?? (typeof fetch === 'function' ? fetch : null);
  if (!fetcher) return null;
  let bytes: ArrayBuffer;
  try {
    const response = await fetcher(wasmUrl);
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return `answered HTTP ${response.status}`;
    }
    bytes = await response.arrayBuffer();
  } catch (err) {
    return `could not be fetched (${err instanceof Error ? err.message : String(err)})`;
  }
  if (typeof WebAssembly === 'undefined') return null;
  return WebAssembly.validate(bytes) ? null : `is not a WebAssembly module this browser can compile (${bytes.byteLength} bytes)`;
}

/** The origin's storage use and quota when `err` is a quota error; null otherwise. */
export async function quotaEstimate(err: unknown): Promise<{ usageBytes: number; quotaBytes: number } | null> {
  const quota = (err instanceof Error && err.name === 'QuotaExceededError') || /quota/i.test(String((err as { message?: unknown })?.message ?? err));
  if (!quota || typeof navigator === 'undefined' || !navigator.storage?.estimate) return null;
  try {
    const { usage, quota: total } = await navigator.storage.estimate();
    return { usageBytes: usage ?? 0, quotaBytes: total ?? 0 };
  } catch {
    return null;
  }
}
