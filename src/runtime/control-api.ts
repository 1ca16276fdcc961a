/**
 * The runtime worker's control API, exposed with Comlink. HTTP-shaped traffic does not go
 * through here (see `serveRequests`); this is for the page that owns the worker. Model
 * loading and its progress are HTTP too (`/v1/local/*`), so every tab can use them.
 */
import type { CpuEngineOptions } from '../engine/cpu-threads';
import type { RetentionPolicy } from '../server/retention';
import type { RuntimeToolsOptions } from '../tools/tools-config';

/** What the CPU engine needs from the app: where its wasm is (`local-responses/cpu`). */
export interface CpuEngineAssets {
  /** URL of `wllama.wasm`; relative URLs resolve against the page. */
  wasmUrl: string;
}

export interface RuntimeStartOptions {
  /** Register the `test-scripted` model. */
  testModels: boolean;
  /** Also serve GGUF models on the CPU (wllama); its code loads only then. */
  cpuEngine?: CpuEngineAssets;
  /**
   * Base URL of a mirror of web-llm's weights and model libraries (layout: see
   * `AppConfigOptions.modelBase` in engine/webllm/catalog.ts); relative URLs resolve against
   * the runtime's origin. Default: Hugging Face and web-llm's GitHub, as web-llm ships.
   */
  modelBase?: string;
  /** Builtin tools: configuration and the Python sandbox port (transferred); see tools/page-tools.ts. */
  tools?: RuntimeToolsOptions;
  /**
   * How long stored responses are kept; a limit left out keeps its default (90 days,
   * 200 MB; server/retention.ts). `POST /v1/local/storage/prune` can change it later.
   */
  retention?: Partial<RetentionPolicy>;
  /** The CPU engine: `threads` (default all cores, when cross-origin isolated; else 1). */
  cpu?: CpuEngineOptions;
}

/**
 * What the page that started the runtime does for it: things only a window can do. Passed
 * to `start` as a Comlink proxy.
 */
export interface PageServices {
  /** `navigator.storage.persist()` (window-only); asked right before a model download. */
  requestPersist(): Promise<boolean>;
}

export interface RuntimeStatus {
  state: 'starting' | 'ready' | 'failed';
  /** The Web Lock this runtime holds for its life; unique per runtime instance. */
  runtimeLock: string;
  testModels: boolean;
  /** The model mirror in use, when one was given. */
  modelBase?: string;
  /** Set when `state` is `failed`: why the server could not start. */
  error?: string;
}

export interface RuntimeControl {
  /** Starts the server (once); later calls return the current status. `page`: a Comlink proxy. */
  start(options: RuntimeStartOptions, page?: PageServices): Promise<RuntimeStatus>;
  status(): Promise<RuntimeStatus>;
  /** Serves requests arriving on `port` (transfer it). Resolves with this runtime's lock name. */
  connect(port: MessagePort): Promise<string>;
}
