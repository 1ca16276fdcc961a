/**
 * Where the page starts the runtime worker from.
 *
 * By default the worker is this module's neighbour, written as
 * `new Worker(new URL(…, import.meta.url))` so that Vite and webpack 5 find it and bundle it
 * (with its chunks and wasm) into the consuming app: no file to copy by hand.
 *
 * With an `assetBase` (the package's `dist/` hosted elsewhere, a CDN) it is
 * `{assetBase}runtime-worker.js`. A worker script must be same-origin, so a cross-origin one
 * is started through a one-line module worker that imports it (the CDN must send CORS
 * headers, and the app's CSP must allow `blob:` workers).
 */
const WORKER_NAME = 'local-responses-runtime';

export function runtimeWorkerFactory(assetBase: string | undefined): () => Worker {
  if (assetBase === undefined) {
    // Literal options: bundlers that re-bundle this worker read them statically.
    return () => new Worker(new URL('../runtime/runtime-worker.ts', import.meta.url), { type: 'module', name: 'local-responses-runtime' });
  }
  const base = new URL(assetBase.endsWith('/') ? assetBase : `${assetBase}/`, location.href);
  const url = new URL('runtime-worker.js', base);
  if (url.origin === location.origin) return () => new Worker(url, { type: 'module', name: WORKER_NAME });
  return () => {
    const shim = URL.createObjectURL(new Blob([`import ${JSON.stringify(url.href)};`], { type: 'text/javascript' }));
    return new Worker(shim, { type: 'module', name: WORKER_NAME });
  };
}
