/**
 * The pyodide files the app serves under `/pyodide/` (copied from the npm package by
 * vite.config.ts) and the sandbox loads: the runtime, its WebAssembly, the standard
 * library and the package lock. Nothing else of the package is needed offline. Which files
 * and how an app says where they are: `PYODIDE_FILES`, `PyodideAssets` (protocol/runtime-options.ts).
 */
import { PYODIDE_FILES, type PyodideAssets, type PyodideFileName } from '../../protocol/runtime-options';

/** The URL of one file. */
export function pyodideFileUrl(assets: PyodideAssets, name: PyodideFileName): string {
  return typeof assets === 'string' ? new URL(name, assets).href : assets[name];
}

/**
 * Fetches the files (same-origin, so the service worker's cache and the HTTP cache apply)
 * as Blobs, which cross into the sandbox without copying.
 */
export async function loadPyodideFiles(assets: PyodideAssets, fetchFn: typeof fetch = (i, init) => globalThis.fetch(i, init)): Promise<Record<PyodideFileName, Blob>> {
  const entries = await Promise.all(
    PYODIDE_FILES.map(async (name) => {
      const url = pyodideFileUrl(assets, name);
      let response: Response;
      try {
        response = await fetchFn(url);
      } catch (error) {
        throw new Error(`${url} could not be loaded (${String(error)}): the app is offline and Python has not been cached yet`);
      }
      if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}: this build does not serve pyodide (see vite.config.ts)`);
      return [name, await response.blob()] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<PyodideFileName, Blob>;
}
