/**
 * The CPU engine as the runtime worker runs it.
 *
 * wllama's WebAssembly module comes from the page (`wasmUrl`, from the package's
 * `local-responses/cpu` entry): only an app that imports that entry has its bundler copy the
 * 10 MB file. Served from the app's origin (hashed, its own cache key), the engine starts
 * offline once a model is cached. `compat: null` (the engine's default) keeps wllama from
 * ever fetching its fallback build from a CDN. That one file is also the multi-thread
 * build: wllama 3.13 ships a single pthreads-enabled wasm and starts its thread pool (workers
 * from a blob: of its own glue) only when `n_threads` > 1 and SharedArrayBuffer exists, so
 * threads need nothing more shipped, only cross-origin isolation.
 */
import { GGUF_CATALOG, GGUF_EMBEDDING_CATALOG, GGUF_EMBEDDING_TEST_CATALOG, GGUF_TEST_CATALOG, WllamaEmbedder, WllamaEngine, type WllamaEmbeddingLike } from '../engine/wllama';

// With the engine, in this lazily imported module: its part of `/v1/local/*`.
export { WllamaModels } from '../engine/wllama';

export interface WllamaRuntimeOptions {
  /** URL of `wllama.wasm` (see `local-responses/cpu`). */
  wasmUrl: string;
  /** Also serve the hidden test GGUFs (`test-tiny-llama`, `test-stories260k`; mirror only). */
  testModels: boolean;
  /** Base URL of a mirror holding the `.gguf` files side by side (`{ggufBase}/{file}`); default Hugging Face. */
  ggufBase?: string;
  /** What the wasm's path and a relative `ggufBase` resolve against (default: `location.href`). */
  origin?: string;
  /** llama.cpp's threads (`cpuThreads`: all cores when isolated, else 1). Default 1. */
  threads?: number;
}

/**
 * The wllama engine with the GGUF catalog (and the hidden test models when `testModels`).
 *
 * @example
 * const engines = [createWllamaEngine({ wasmUrl, testModels: true, ggufBase: 'http://127.0.0.1:9000/' })];
 */
export function createWllamaEngine(options: WllamaRuntimeOptions): WllamaEngine {
  const origin = options.origin ?? (globalThis as { location?: Location }).location?.href;
  return new WllamaEngine({
    catalog: options.testModels ? [...GGUF_CATALOG, ...GGUF_TEST_CATALOG] : GGUF_CATALOG,
    // wllama fetches it from its own (blob) worker: the URL must be absolute.
    wasmUrl: origin ? new URL(options.wasmUrl, origin).href : options.wasmUrl,
    ...(origin ? { origin } : {}),
    ...(options.ggufBase ? { modelBase: options.ggufBase } : {}),
    ...(options.threads ? { threads: options.threads } : {}),
  });
}

/**
 * The CPU engine's embedding models (a `Wllama` each, loaded on first use), with the test
 * one (`test-tiny-embed`, mirror only) when `testModels`.
 */
export function createWllamaEmbedders(options: WllamaRuntimeOptions): WllamaEmbedder[] {
  const origin = options.origin ?? (globalThis as { location?: Location }).location?.href;
  const wasmUrl = origin ? new URL(options.wasmUrl, origin).href : options.wasmUrl;
  const createWllama = async (): Promise<WllamaEmbeddingLike> => {
    const { Wllama } = await import('@wllama/wllama');
    const quiet = { debug: () => undefined, log: () => undefined, warn: console.warn, error: console.error };
    const wllama = new Wllama({ default: wasmUrl }, { suppressNativeLog: true, logger: quiet });
    wllama.setCompat(null);
    return wllama;
  };
  const catalog = options.testModels ? [...GGUF_EMBEDDING_CATALOG, ...GGUF_EMBEDDING_TEST_CATALOG] : GGUF_EMBEDDING_CATALOG;
  return catalog.map(
    (entry) =>
      new WllamaEmbedder(entry, {
        createWllama,
        ...(origin ? { origin } : {}),
        ...(options.ggufBase ? { modelBase: options.ggufBase } : {}),
        ...(options.threads ? { threads: options.threads } : {}),
      }),
  );
}
