/**
 * The wllama engine: llama.cpp compiled to WebAssembly (`@wllama/wllama` 3.13), on the CPU,
 * for browsers and devices without usable WebGPU — and real inference in CI, which has no
 * GPU. GGUF models from the catalog are loaded on demand, one at a time. The prompt is the
 * model's own chat template (`tokenizer.chat_template`, rendered with `@huggingface/jinja` over
 * the messages our chat formats wrote, see `gguf-chat-template.ts`) when the GGUF has one that
 * renders, our chat format's prompt otherwise; wllama's own template and tool parsing are not
 * used, and our chat formats parse the raw text it streams back.
 *
 * Facts this adapter relies on (wllama 3.13 in Chromium 156, measured; see `wllama-like.ts`):
 * - wllama runs from two same-origin files, `esm/index.js` and `esm/wasm/wllama.wasm`
 *   (`wasmUrl`). It must be told not to use its "compat" build (`setCompat(null)`), or it
 *   fetches one from a CDN on browsers without JSPI or wasm memory64 (`compat` can point at
 *   a self-hosted `@wllama/wllama-compat` instead). Without memory64 the main build cannot run
 *   at all, so such a load fails up front with `wasm_unsupported` (`wasm-support.ts`).
 * - It does not run in Node 20: it needs a web `Worker`, and its wasm needs memory64
 *   (Node 20's V8 11.3 has neither). Unit tests drive the adapter through a fake
 *   `WllamaLike`; the real thing is tested in Chromium.
 * - A completion prompt is tokenized by llama.cpp's server with special tokens parsed
 *   (`<|im_start|>` in the text is the control token, not 12 characters: measured) and BOS
 *   added when the model asks for it (see `bos-text.ts`).
 * - Usage is exact: prompt tokens and KV-cache reuse come with the first chunk
 *   (`return_progress`), output tokens and timings with the last. llama.cpp keeps each
 *   slot's KV cache between requests and reuses the longest common prefix (`cache_prompt`):
 *   a `previous_response_id` turn, whose prompt starts with the previous turn's as our
 *   formats and GGUF templates re-render the history, prefills only what is new, up to
 *   where the re-rendered reply differs from the tokens sampled (e.g. a dropped `<think>`).
 * - Loading a file that is not a model does not fail (`n_vocab` is 0); a wasm URL that does
 *   not answer never settles. Hence the checks and the load timeout (`load.ts`).
 * - Sampling: `temperature`/`top_p` as given, llama.cpp's defaults otherwise (temperature
 *   0.8, top_k 40, top_p 0.95, min_p 0.05; top_k and min_p always apply). Temperature 0 is
 *   greedy, and greedy output is deterministic.
 */
import type { Rendered } from '../../chat/chat-format';
import { ApiError, serverError } from '../../shared/api-error';
import type { Engine, GenerateRequest, LoadProgress, ModelInfo } from '../../ports/engine';
import { REAL_ENGINE_DELTA_WINDOW_MS } from '../delta-window';
import { modelNotFound } from '../engine-errors';
import { withoutBosText } from './bos-text';
import type { ChatMessage } from '../../chat/chat-message';
import { GGUF_CATALOG, ggufModelInfo, ggufUrl, type GgufCatalogEntry } from './gguf-catalog';
import { estimateTokens } from '../token-estimate';
import { isContextOverflow, noModelSource, wllamaGenerationError } from './errors';
import { WllamaGeneration } from './generation';
import { opfsWllamaCache } from './opfs-cache';
import type { WllamaCacheLike, WllamaCompletionParams, WllamaContextInfo, WllamaLike } from './wllama-like';
import { abortReason } from '../../shared/abort';
import { LoadQueue } from '../load-queue';
import { LoadReports } from '../load-reports';
import { cpuEngineUnsupported } from '../wasm-support';
import { KV_CACHE_MISFIT, loadModelInto } from './load';
import { Codes } from '../../shared/error-codes';

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Where wllama's "compat" build lives, when self-hosted (`@wllama/wllama-compat`). */
export interface WllamaCompat {
  worker: string;
  wasm: string;
}

export interface WllamaEngineOptions {
  /** Default: `GGUF_CATALOG` (add `GGUF_TEST_CATALOG` for test models). */
  catalog?: readonly GgufCatalogEntry[];
  /** Base URL of a mirror holding the catalog's `.gguf` files side by side; default Hugging Face. */
  modelBase?: string;
  /** What a relative `modelBase` resolves against (default `location.href`). */
  origin?: string;
  /** URL of `@wllama/wllama/esm/wasm/wllama.wasm`, served from this origin. */
  wasmUrl: string;
  /** wllama's fallback build for browsers without JSPI/memory64 (default: none, never a CDN). */
  compat?: WllamaCompat | null;
  /** Load progress of the model being loaded. */
  onProgress?: (progress: LoadProgress) => void;
  /** Default: a real `Wllama` (loaded with a dynamic import). Tests pass a fake. */
  createWllama?: () => WllamaLike | Promise<WllamaLike>;
  /**
   * A load fails when nothing happens for this long: no download progress, or the engine
   * not starting after the download (a wrong `wasmUrl` never settles). Default 60 s.
   */
  loadTimeoutMs?: number;
  /** Layers offloaded to WebGPU (default 0: this is the CPU engine, and WebGPU init is skipped). */
  gpuLayers?: number;
  /** llama.cpp's `n_threads` (see `cpu-threads.ts`); more than 1 needs cross-origin isolation. Default 1. */
  threads?: number;
  /** Used to probe `wasmUrl` after a load timed out (default `fetch`). */
  fetch?: FetchLike;
  /** wllama's model cache (default: its `CacheManager`, OPFS, loaded on first use). */
  cache?: WllamaCacheLike;
  /**
   * Why `model` cannot run in this browser, checked before a load (default: the memory64
   * check of `wasm-support.ts` for the real wllama without a compat build; none otherwise).
   */
  checkSupport?: (model: string) => ApiError | null;
}

interface Loaded {
  entry: GgufCatalogEntry;
  wllama: WllamaLike;
  info: WllamaContextInfo;
  contextWindow: number;
  /**
   * The GGUF's own chat template, parsed (`gguf-chat-template.ts`, imported at the load with
   * its Jinja interpreter); null when it has none or our Jinja cannot read it. Renders the
   * prompt, or null when the template fails on these messages.
   */
  template: ((messages: readonly ChatMessage[], variables: { enableThinking?: boolean }) => string | null) | null;
}

export const DEFAULT_LOAD_TIMEOUT_MS = 60_000;

function noop(): void {}

/** A real `Wllama` that fetches nothing but `wasmUrl` and the model files. */
async function createRealWllama(wasmUrl: string, compat: WllamaCompat | null): Promise<WllamaLike> {
  const { Wllama } = await import('@wllama/wllama');
  const quiet = { debug: noop, log: noop, warn: console.warn, error: console.error };
  const wllama = new Wllama({ default: wasmUrl }, { suppressNativeLog: true, logger: quiet });
  wllama.setCompat(compat);
  return wllama satisfies WllamaLike;
}

export class WllamaEngine implements Engine {
  readonly name = 'wllama';
  readonly deltaWindowMs = REAL_ENGINE_DELTA_WINDOW_MS;
  /** llama.cpp reports each sampled token's logprob and alternatives (`n_probs`, no limit of its own: OpenAI's 20). */
  readonly reportsLogprobs = true;
  readonly maxTopLogprobs = 20;

  private readonly catalog: readonly GgufCatalogEntry[];
  private readonly modelBase: string | undefined;
  private readonly origin: string | undefined;
  private readonly wasmUrl: string;
  /** Which model is loading, its progress, who listens. */
  readonly loadReports: LoadReports;
  private readonly createWllama: () => WllamaLike | Promise<WllamaLike>;
  private readonly loadTimeoutMs: number;
  private readonly gpuLayers: number;
  private readonly threadsWanted: number;
  private readonly fetchFn: FetchLike | undefined;
  private readonly checkSupport: (model: string) => ApiError | null;

  private loaded: Loaded | null = null;
  private cacheInstance: Promise<WllamaCacheLike> | null;
  private readonly loads = new LoadQueue();
  private readonly active = new Set<WllamaGeneration>();

  constructor(options: WllamaEngineOptions) {
    this.catalog = options.catalog ?? GGUF_CATALOG;
    this.modelBase = options.modelBase;
    this.origin = options.origin;
    this.wasmUrl = options.wasmUrl;
    this.loadReports = new LoadReports(options.onProgress);
    const compat = options.compat ?? null;
    this.createWllama = options.createWllama ?? (() => createRealWllama(options.wasmUrl, compat));
    this.loadTimeoutMs = options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
    this.gpuLayers = options.gpuLayers ?? 0;
    this.threadsWanted = options.threads ?? 1;
    this.fetchFn = options.fetch;
    this.cacheInstance = options.cache ? Promise.resolve(options.cache) : null;
    this.checkSupport = options.checkSupport ?? (options.createWllama || compat ? () => null : cpuEngineUnsupported);
  }

  /** The catalog's entries (file names, sizes). */
  catalogEntries(): readonly GgufCatalogEntry[] {
    return this.catalog;
  }

  /** The catalog; the loaded model's context window is the one llama.cpp runs it with. */
  models(): ModelInfo[] {
    return this.catalog.map((entry) => ggufModelInfo(entry, this.loaded?.entry.id === entry.id ? this.loaded.contextWindow : undefined));
  }

  /**
   * A conservative estimate (wllama 3 exposes no tokenizer) of the prompt `generate` would
   * send: with the model's own template when it is loaded, our chat format's prompt before
   * (the template is known only once the GGUF is read). llama.cpp checks exactly at prefill.
   */
  async countTokens(model: string, input: Rendered): Promise<number> {
    const loaded = this.loaded?.entry.id === model ? this.loaded : null;
    return estimateTokens(loaded ? this.promptFor(input, undefined, loaded) : input.prompt);
  }

  /** The model in the engine, if any. */
  loadedModel(): string | null {
    return this.loaded?.entry.id ?? null;
  }

  /** Threads of the loaded model as wllama reports them (1 when it fell back), else those the next load asks for. */
  threads(): number {
    return this.loaded?.wllama.getNumThreads() ?? this.threadsWanted;
  }

  /**
   * The catalog models whose GGUF is completely in wllama's cache (under the URL this engine
   * loads it from: another mirror's copy does not count).
   */
  async cachedModels(): Promise<Set<string>> {
    const files = await (await this.cache()).list();
    const complete = new Set(files.filter((f) => f.metadata.originalURL && f.size === f.metadata.originalSize).map((f) => f.metadata.originalURL));
    return new Set(this.catalog.filter((entry) => complete.has(this.urlOf(entry) ?? '')).map((entry) => entry.id));
  }

  /** Unloads `model` if it is loaded, then deletes its GGUF from wllama's cache. */
  async deleteCached(model: string): Promise<void> {
    const entry = this.entry(model);
    if (this.loaded?.entry.id === model) await this.unload();
    const url = this.urlOf(entry);
    if (url) await (await this.cache()).delete(url);
  }

  /**
   * Loads `model` unless it is loaded; one model at a time (loads queue up). Aborting
   * `signal` rejects at once and stops the load it started (the download is cancelled,
   * the engine being started is terminated).
   */
  async ensureLoaded(model: string, signal: AbortSignal): Promise<void> {
    const entry = this.entry(model);
    return this.loads.ensure(this.loaded?.entry.id === model, () => this.load(entry, signal), signal);
  }

  /** Ends running generations and frees the model's memory (the worker is terminated). */
  async unload(): Promise<void> {
    return this.loads.after(() => this.unloadNow());
  }

  generate(request: GenerateRequest): WllamaGeneration {
    const entry = this.catalog.find((e) => e.id === request.model);
    let used: Loaded | null = null;
    const generation: WllamaGeneration = new WllamaGeneration(request.signal, {
      start: async (abortSignal) => {
        const started = await this.begin(request, abortSignal, generation);
        used = started.loaded;
        return started.stream;
      },
      mapError: (err) => wllamaGenerationError(err, { model: request.model, sizeBytes: entry?.downloadBytes ?? 0 }),
      onFailure: (err) => this.afterFailure(err, used),
      onEnd: () => this.active.delete(generation),
    }, request.topLogprobs);
    return generation;
  }

  private entry(model: string): GgufCatalogEntry {
    const entry = this.catalog.find((e) => e.id === model);
    if (!entry) throw modelNotFound(model, this.catalog.map((e) => e.id));
    return entry;
  }

  /** Where `entry` is downloaded from; null when there is no source (a test model without a mirror) or the mirror URL is invalid. */
  private urlOf(entry: GgufCatalogEntry): string | null {
    try {
      return ggufUrl(entry, this.modelBase, this.origin);
    } catch {
      return null;
    }
  }

  /** wllama's cache; listed without importing wllama (opfs-cache.ts), so listing the models loads no engine. */
  private cache(): Promise<WllamaCacheLike> {
    this.cacheInstance ??= Promise.resolve(opfsWllamaCache());
    return this.cacheInstance;
  }

  private async begin(request: GenerateRequest, abortSignal: AbortSignal, generation: WllamaGeneration) {
    this.entry(request.model);
    await this.ensureLoaded(request.model, request.signal);
    const loaded = this.loaded;
    if (loaded?.entry.id !== request.model) {
      throw serverError(`${request.model} was unloaded before the response could start. Send the request again.`, Codes.modelLoadFailed);
    }
    this.active.add(generation);
    const params: WllamaCompletionParams = {
      prompt: this.promptFor(request.input, request.enableThinking, loaded),
      stream: true,
      return_progress: true,
      // llama.cpp's default, explicit as conversations rely on it: turn 2 prefills only what turn 1 did not.
      cache_prompt: true,
      abortSignal,
    };
    // llama.cpp reports logprobs only with at least one alternative; the generation keeps what was asked.
    if (request.topLogprobs !== undefined) params.n_probs = Math.max(1, request.topLogprobs);
    if (request.maxOutputTokens !== undefined) params.max_tokens = request.maxOutputTokens;
    if (request.temperature !== undefined) params.temperature = request.temperature;
    if (request.topP !== undefined) params.top_p = request.topP;
    if (request.stop && request.stop.length > 0) params.stop = request.stop;
    return { loaded, stream: await loaded.wllama.createCompletion(params) };
  }

  /**
   * The prompt wllama is given for `input`: the model's own template over the messages when
   * it has one that renders, else the prompt our chat format rendered. wllama 3 gives no
   * token texts (llama.cpp's metadata leaves out the `tokenizer.ggml.tokens` array), so
   * `bos_token`/`eos_token` render as '': llama.cpp adds BOS itself when the model asks for
   * it, and `withoutBosText` drops one a template writes literally, so the model sees one
   * BOS either way.
   */
  private promptFor(input: Rendered, enableThinking: boolean | undefined, loaded: Loaded): string {
    const variables = enableThinking === undefined ? {} : { enableThinking };
    const prompt = loaded.template?.(input.messages, variables) ?? input.prompt;
    return withoutBosText(prompt, loaded.info.add_bos_token);
  }

  /** A failed completion (not a refused prompt): the engine is dropped and loads afresh next time. */
  private afterFailure(err: unknown, used: Loaded | null): void {
    // Our own errors (unknown model, a failed load that cleaned up) and refused prompts leave the engine as it is.
    if (err instanceof ApiError || isContextOverflow(err)) return;
    if (!used || this.loaded !== used) return;
    this.loaded = null;
    void used.wllama.exit().catch(noop);
  }

  /** Waits for generations being read, stops those nobody reads. */
  private async settleActive(): Promise<void> {
    await Promise.all([...this.active].map((g) => g.abandon({ waitForConsumer: true })));
  }

  private async unloadNow(): Promise<void> {
    await this.settleActive();
    const loaded = this.loaded;
    this.loaded = null;
    await loaded?.wllama.exit().catch(noop);
  }

  private load(entry: GgufCatalogEntry, signal: AbortSignal): Promise<void> {
    return this.loadReports.during(entry.id, () => this.loadNow(entry, signal));
  }

  private async loadNow(entry: GgufCatalogEntry, signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw abortReason(signal);
    const unsupported = this.checkSupport(entry.id);
    if (unsupported) throw unsupported;
    if (this.loaded?.entry.id === entry.id) return;
    // One model in memory at a time: the previous engine's worker goes before the next starts.
    await this.unloadNow();
    if (signal.aborted) throw abortReason(signal);

    let url: string | null;
    try {
      url = ggufUrl(entry, this.modelBase, this.origin);
    } catch (err) {
      throw serverError(`The model mirror URL ${this.modelBase} is not valid: ${err instanceof Error ? err.message : String(err)}`, Codes.modelDownloadFailed);
    }
    if (!url) throw noModelSource(entry.id, entry.file);

    let wllama = await this.createWllama();
    const attempt = { entry, url, signal, reports: this.loadReports, timeoutMs: this.loadTimeoutMs, wasmUrl: this.wasmUrl, fetchFn: this.fetchFn, gpuLayers: this.gpuLayers, threads: this.threadsWanted };
    let info = await loadModelInto(wllama, { ...attempt, kvCache: entry.kv_cache });
    if (info === KV_CACHE_MISFIT) {
      // Loaded again (from wllama's cache, no second download) on llama.cpp's f16.
      console.warn(`${entry.id}: its attention heads do not fit a ${entry.kv_cache} KV cache; loading it with f16`);
      await wllama.exit().catch(noop);
      wllama = await this.createWllama();
      info = await loadModelInto(wllama, attempt);
      if (info === KV_CACHE_MISFIT) throw new Error('unreachable: no KV cache type was asked for');
    }
    const trained = info.n_ctx_train > 0 ? info.n_ctx_train : info.n_ctx;
    const source = wllama.getChatTemplate();
    const { parseChatTemplate, renderWithTemplate } = await import('./gguf-chat-template');
    const parsed = source ? parseChatTemplate(source, entry.id) : null;
    const template: Loaded['template'] = parsed && ((messages, variables) => renderWithTemplate(parsed, entry.id, messages, variables));
    this.loaded = { entry, wllama, info, contextWindow: Math.min(info.n_ctx, trained), template };
    this.loadReports.report({ model: entry.id, phase: 'ready', progress: 1, text: `${entry.label} is ready` });
  }
}
