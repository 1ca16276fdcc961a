/**
 * The CPU engine as the runtime worker runs it, and which engine suits this device.
 *
 * wllama's WebAssembly module is served from this origin: the `?url` import makes Vite emit
 * `wllama.wasm` into `assets/` (hashed, so it is its own cache key) and the service worker
 * precaches it with the app shell, so the engine starts offline once a model is cached.
 * `compat: null` (the engine's default) keeps wllama from ever fetching its fallback build
 * from a CDN. That one file is also the multi-thread build: wllama 3.13 ships a single
 * pthreads-enabled wasm and starts its thread pool (workers from a blob: of its own glue)
 * only when `n_threads` > 1 and SharedArrayBuffer exists, so threads need nothing more
 * precached, only cross-origin isolation.
 */
import wllamaWasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { GGUF_CATALOG, GGUF_TEST_CATALOG } from '../engine/gguf-catalog';
import type { WebGpuSupport } from '../engine/webgpu-support';
import { WllamaEngine } from '../engine/wllama-engine';

export interface WllamaRuntimeOptions {
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
 * const engines = [createWllamaEngine({ testModels: true, ggufBase: 'http://127.0.0.1:9000/' })];
 */
export function createWllamaEngine(options: WllamaRuntimeOptions): WllamaEngine {
  const origin = options.origin ?? (globalThis as { location?: Location }).location?.href;
  return new WllamaEngine({
    catalog: options.testModels ? [...GGUF_CATALOG, ...GGUF_TEST_CATALOG] : GGUF_CATALOG,
    // wllama fetches it from its own (blob) worker: the URL must be absolute.
    wasmUrl: origin ? new URL(wllamaWasmUrl, origin).href : wllamaWasmUrl,
    ...(origin ? { origin } : {}),
    ...(options.ggufBase ? { modelBase: options.ggufBase } : {}),
    ...(options.threads ? { threads: options.threads } : {}),
  });
}

/**
 * The engine whose models suit this device: `web-llm` when WebGPU has a usable adapter,
 * `wllama` (CPU) otherwise. A software adapter (SwiftShader, WARP) counts as not usable: it
 * runs, but at minutes per token. No answer from detection (`null`: it failed or timed out)
 * means `wllama`.
 */
export function preferredEngine(gpu: WebGpuSupport | null | undefined | void): 'web-llm' | 'wllama' {
  return gpu?.usable && !gpu.fallbackAdapter ? 'web-llm' : 'wllama';
}
