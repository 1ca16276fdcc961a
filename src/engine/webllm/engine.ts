/**
 * The web-llm (WebGPU) engine: catalog models loaded on demand, one at a time, streaming
 * raw model text. Our chat formats render the conversation (tool definitions included)
 * into role/content messages and parse the output, so web-llm's own `tools` are not used.
 *
 * KV-cache reuse across turns (what makes a `previous_response_id` turn cheap): web-llm
 * keeps the conversation it last ran and, when a request's `messages[:-1]` equal that
 * conversation (system message, every turn, and its own previous reply, compared as exact
 * strings) and the previous reply ended with `stop` (not `length`/`abort`), it prefills
 * only the new last message. It reports this only indirectly: `usage.prompt_tokens` counts
 * the tokens prefilled this turn, not the reused ones, and `time_to_first_token_s` drops.
 * This adapter tracks the conversation web-llm holds to predict reuse and reports
 * `cachedTokens` = the KV length after the previous turn (its prompt + completion tokens,
 * minus the last sampled token, which is never fed back; off by one for templates that
 * prepend a BOS token). Our chat formats re-render earlier assistant turns from Responses
 * items (Qwen3 drops old `<think>` blocks, tool calls are re-serialized), which never match
 * web-llm's copy; `kv-reuse.ts` puts web-llm's raw reply back in place of our
 * rendering when both say the same, so a `previous_response_id` turn prefills only the new
 * message.
 */
import type { GrammarSyntax } from '../../ports/engine';
import type { AppConfig, ChatCompletionMessageParam, InitProgressReport } from '@mlc-ai/web-llm';
import type { ChatFormat, Rendered } from '../../chat/chat-format';
import { chatFormats } from '../../chat/chat-formats';
import { ApiError, serverError } from '../../shared/api-error';
import type { Engine, GenerateRequest, LoadProgress, ModelInfo } from '../../ports/engine';
import { REAL_ENGINE_DELTA_WINDOW_MS } from '../delta-window';
import { classifyEngineError, generationError, loadError, modelNotFound, webGpuUnavailable } from '../engine-errors';
import { describeLoadFailure } from './load-failure';
import { HeldConversation, type SentConversation } from './held-conversation';
import { toLoadProgress } from './load-progress';
import { ModelCache, type StorageLike, type WebLlmCacheApi } from './cache';
import { MODEL_CATALOG, buildAppConfig, findCatalogEntry, resolveVariant, toModelInfo, type CatalogEntry, type ModelVariant } from './catalog';
import { detectWebGpu, type WebGpuSupport } from '../webgpu-support';
import { WebLlmGeneration, type PrimedStream } from './generation';
import { estimateTokens } from '../token-estimate';
import { toWebLlmMessages, webLlmInputTokens, webLlmRequestBody, webLlmThinking } from './messages';
import { abortReason } from '../../shared/abort';
import type { CreateEngine, MLCEngineLike } from './mlc-engine-like';
import { LoadQueue } from '../load-queue';
import { LoadReports } from '../load-reports';
import { Codes } from '../../shared/error-codes';



type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface WebLlmEngineOptions {
  /** Default: the curated `MODEL_CATALOG`. */
  catalog?: readonly CatalogEntry[];
  /** Base URL of a mirror of weights and model libraries (layout: `AppConfigOptions.modelBase`). */
  modelBase?: string;
  /** What a relative `modelBase` resolves against (default `location.href`). */
  origin?: string;
  /** Load progress of the model being loaded (for the runtime's control API / the UI). */
  onProgress?: (progress: LoadProgress) => void;
  /** Default: `new MLCEngine(config)` from @mlc-ai/web-llm. Tests pass a fake. */
  createEngine?: CreateEngine;
  /** Default: `detectWebGpu()` on `navigator.gpu`. */
  detectGpu?: () => Promise<WebGpuSupport>;
  /** web-llm's cache functions (default: the real ones). */
  cacheApi?: WebLlmCacheApi;
  /** Default `navigator.storage`. */
  storage?: StorageLike | null;
  /** How to ask for persistent storage; in a worker, ask the page (workers lack `persist()`). */
  requestPersist?: () => Promise<boolean>;
  /** Used to find which file failed after a download error (default `fetch`). */
  fetch?: FetchLike;
  /** The chat formats catalog entries name (default `chatFormats`): their parsers decide KV-cache reuse. */
  formats?: Record<string, ChatFormat>;
}

interface Loaded {
  entry: CatalogEntry;
  variant: ModelVariant;
}

/** What web-llm 0.2.86 puts before the reply for `enable_thinking: false` (`emptyThinkingBlockStr`). */
export const WEBLLM_EMPTY_THINKING = '<think>\n\n</think>\n\n';

export { estimateTokens };

function noop(): void {}

export class WebLlmEngine implements Engine {
  readonly name = 'web-llm';
  /** A small model on a fast GPU decodes 100+ tokens/s: the same cap on text events as wllama. */
  readonly deltaWindowMs = REAL_ENGINE_DELTA_WINDOW_MS;
  /** web-llm streams each sampled token's logprob (`choices[0].logprobs.content`), with up to 5 alternatives. */
  readonly reportsLogprobs = true;
  readonly maxTopLogprobs = 5;
  /** Custom tool grammars: converted to EBNF (`printGrammar`), which web-llm's xgrammar enforces. */
  readonly grammarSyntaxes: ReadonlySet<GrammarSyntax> = new Set(['lark', 'regex']);
  readonly answersOnlyAfterUser = true;
  /** The records web-llm loads from (mirrored when `modelBase` is set). */
  readonly appConfig: AppConfig;
  /** Cached models, deleting one, storage estimate: for the runtime's control API. */
  readonly cache: ModelCache;

  private readonly catalog: readonly CatalogEntry[];
  /** Which model is loading, its progress, who listens. */
  readonly loadReports: LoadReports;
  private readonly createEngine: CreateEngine;
  private readonly detectGpu: () => Promise<WebGpuSupport>;
  private readonly fetchFn: FetchLike | undefined;

  private engine: MLCEngineLike | null = null;
  private enginePromise: Promise<MLCEngineLike> | null = null;
  private gpu: WebGpuSupport | null = null;
  private loaded: Loaded | null = null;
  private readonly loads = new LoadQueue();
  private active: WebLlmGeneration | null = null;
  /** What web-llm holds after the last turn, for KV-cache reuse. */
  private readonly held: HeldConversation;
  /** Builds whose conversation template turned out to lack a `tool` role. */
  private readonly noToolRole = new Set<string>();

  constructor(options: WebLlmEngineOptions = {}) {
    this.catalog = options.catalog ?? MODEL_CATALOG;
    this.appConfig = buildAppConfig(this.catalog, {
      ...(options.modelBase !== undefined ? { modelBase: options.modelBase } : {}),
      ...(options.origin !== undefined ? { origin: options.origin } : {}),
    });
    this.loadReports = new LoadReports(options.onProgress);
    // Imported at the first load: web-llm is 6.8 MB of script the runtime starts without.
    this.createEngine = options.createEngine ?? (async (config) => new (await import('@mlc-ai/web-llm')).MLCEngine(config));
    this.detectGpu = options.detectGpu ?? (() => detectWebGpu());
    this.fetchFn = options.fetch;
    this.held = new HeldConversation(options.formats ?? chatFormats);
    this.cache = new ModelCache({
      catalog: this.catalog,
      appConfig: this.appConfig,
      ...(options.cacheApi ? { webllm: options.cacheApi } : {}),
      ...(options.storage !== undefined ? { storage: options.storage } : {}),
      ...(options.requestPersist ? { requestPersist: options.requestPersist } : {}),
    });
  }

  /** The catalog; sizes are those of the build this device loads (q4f16 until the GPU is known). */
  models(): ModelInfo[] {
    const f16 = this.gpu?.usable ? this.gpu.shaderF16 : true;
    return this.catalog.map((entry) => toModelInfo(entry, f16));
  }

  /** A conservative estimate over the messages web-llm gets (see `webLlmInputTokens`); the context window is the catalog's. */
  async countTokens(_model: string, input: Rendered): Promise<number> {
    return webLlmInputTokens(input.messages);
  }

  /** The model whose weights are on the GPU, if any. */
  loadedModel(): string | null {
    return this.loaded?.entry.id ?? null;
  }

  /**
   * The web-llm build of `model` this device loads: q4f32 without `shader-f16`. Before the
   * GPU is known (or when it is unusable), the q4f16 build.
   */
  variantFor(model: string): ModelVariant {
    const f16 = this.gpu?.usable ? this.gpu.shaderF16 : true;
    return resolveVariant(this.entry(model), f16);
  }

  /** WebGPU support, detected once it is usable (an unusable result is checked again next time). */
  async gpuSupport(): Promise<WebGpuSupport> {
    if (this.gpu?.usable) return this.gpu;
    this.gpu = await this.detectGpu();
    return this.gpu;
  }

  /**
   * Loads `model` unless it is loaded; one model at a time (loads queue up). Aborting
   * `signal` rejects at once. web-llm cannot cancel a reload cleanly: `unload()` aborts its
   * downloads (files already fetched stay cached), but compiling goes on; the adapter waits
   * for the reload to settle and unloads what it loaded before the next load starts.
   */
  async ensureLoaded(model: string, signal: AbortSignal): Promise<void> {
    const entry = this.entry(model);
    return this.loads.ensure(this.loaded?.entry.id === model, () => this.load(entry, signal), signal);
  }

  /** Unloads the model and frees the GPU memory. */
  async unload(): Promise<void> {
    return this.loads.after(async () => {
      await this.abandonActive(true);
      this.loaded = null;
      this.held.clear();
      await this.engine?.unload();
    });
  }

  generate(request: GenerateRequest): WebLlmGeneration {
    let generation: WebLlmGeneration | null = null;
    const primed = this.begin(request, () => {
      this.active = generation;
    });
    let primedState: SentConversation | null = null;
    const thinkingOff = webLlmThinking(request, findCatalogEntry(this.catalog, request.model)) === false;
    generation = new WebLlmGeneration(
      primed.then((p) => {
        primedState = p;
        return p;
      }),
      {
        signal: request.signal,
        ...(request.stop ? { stop: request.stop } : {}),
        ...(thinkingOff ? { dropPrefix: WEBLLM_EMPTY_THINKING } : {}),
        ...(request.topLogprobs !== undefined ? { topLogprobs: request.topLogprobs } : {}),
      },
      {
        mapError: (err) => generationError(err, { model: request.model }),
        onFailure: (err) => (request.signal.aborted ? this.held.clear() : this.afterFailure(err)),
        onEnd: (end) => this.held.after(end, primedState),
      },
    );
    return generation;
  }

  private entry(model: string): CatalogEntry {
    const entry = findCatalogEntry(this.catalog, model);
    if (!entry) throw modelNotFound(model, this.catalog.map((e) => e.id));
    return entry;
  }

  private async getEngine(): Promise<MLCEngineLike> {
    if (this.engine) return this.engine;
    this.enginePromise ??= this.createEngine({
      appConfig: this.appConfig,
      initProgressCallback: (report: InitProgressReport) => this.onInitProgress(report),
    });
    try {
      this.engine = await this.enginePromise;
      return this.engine;
    } finally {
      this.enginePromise = null;
    }
  }

  private onInitProgress(report: InitProgressReport): void {
    const model = this.loadReports.loading;
    if (!model) return;
    this.loadReports.report(toLoadProgress(model, report, this.loadReports.latest()));
  }

  private async load(entry: CatalogEntry, signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw abortReason(signal);
    if (this.loaded?.entry.id === entry.id) return;
    await this.abandonActive(true);
    const gpu = await this.gpuSupport();
    if (!gpu.usable) throw webGpuUnavailable(gpu.reason);
    const variant = resolveVariant(entry, gpu.shaderF16);
    const ctx = { model: entry.id, variantId: variant.modelId, vramBytes: variant.vramBytes, downloadBytes: variant.downloadBytes };

    let engine: MLCEngineLike;
    try {
      engine = await this.getEngine();
    } catch (err) {
      throw loadError(err, ctx);
    }
    if (this.loaded) {
      this.loaded = null;
      this.held.clear();
      await engine.unload().catch(noop); // reload() unloads again anyway
    }
    if (signal.aborted) throw abortReason(signal);
    if (!(await this.cache.isCached(variant.modelId))) await this.cache.prepareDownload(entry.id, variant);
    if (signal.aborted) throw abortReason(signal);

    // Marked as loading while web-llm reloads: its progress callback reports for this model then.
    await this.loadReports.during(entry.id, async () => {
      this.loadReports.report({ model: entry.id, phase: 'download', progress: 0, text: `Fetching ${entry.label}: model library and configuration` });
      // web-llm's unload() aborts the fetches of a reload in flight (its reloadController).
      const onAbort = () => void engine.unload().catch(noop);
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        await engine.reload(variant.modelId);
      } catch (err) {
        if (signal.aborted) {
          await engine.unload().catch(noop);
          throw abortReason(signal);
        }
        await this.discardEngine(engine, err);
        throw await describeLoadFailure(err, entry, variant, { appConfig: this.appConfig, catalog: this.catalog, fetch: this.fetchFn, estimateStorage: () => this.cache.estimate() });
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    });
    // An aborted reload may still resolve (web-llm swallows the AbortError, or it was past downloading).
    if (signal.aborted) {
      await engine.unload().catch(noop);
      throw abortReason(signal);
    }
    this.loaded = { entry, variant };
    const last = this.loadReports.latest();
    if (last?.model !== entry.id || last.phase !== 'ready')
      this.loadReports.report({ model: entry.id, phase: 'ready', progress: 1, text: `${entry.label} is ready` });
  }

  /** Frees what a failed load left; a lost or out-of-memory device gets a fresh engine next time. */
  private async discardEngine(engine: MLCEngineLike, err: unknown): Promise<void> {
    this.loaded = null;
    this.held.clear();
    await engine.unload().catch(noop);
    const kind = classifyEngineError(err);
    if (kind === 'device_lost' || kind === 'gpu_memory') this.engine = null;
  }

  /**
   * Makes sure no earlier generation holds web-llm: one nobody iterates is drained. Before a
   * model switch (`waitForConsumer`) one being iterated is awaited too; before a generation
   * it is not, web-llm's per-model lock already orders the two streams.
   */
  private async abandonActive(waitForConsumer = false): Promise<void> {
    const active = this.active;
    this.active = null;
    await active?.abandon({ waitForConsumer });
  }

  /** Loads if needed, starts web-llm's stream and waits for prefill (the prompt accepted). */
  private async begin(
    request: GenerateRequest,
    register: () => void,
  ): Promise<PrimedStream & { messages: ChatCompletionMessageParam[]; variantId: string }> {
    const entry = this.entry(request.model);
    await this.ensureLoaded(request.model, request.signal);
    await this.abandonActive();
    register();
    const engine = this.engine;
    const loaded = this.loaded;
    if (!engine || loaded?.entry.id !== entry.id)
      throw serverError(`${entry.id} was unloaded before the response could start. Send the request again.`, Codes.modelLoadFailed);
    const variantId = loaded.variant.modelId;

    const attempt = async (toolRole: boolean) => {
      const messages = this.held.reuse(entry, variantId, toWebLlmMessages(request.input.messages, toolRole));
      const cachedTokens = this.held.cachedTokens(variantId, messages);
      const stream = await engine.chat.completions.create(webLlmRequestBody(entry, variantId, messages, request));
      const iterator = stream[Symbol.asyncIterator]();
      const first = await iterator.next();
      return { engine, iterator, first, cachedTokens, estimatedInputTokens: webLlmInputTokens(messages), messages, variantId };
    };
    const toolRole = entry.nativeToolRole && !this.noToolRole.has(variantId);
    try {
      return await attempt(toolRole);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (!toolRole || !/Role is not supported: tool/i.test(message)) throw err;
      this.noToolRole.add(variantId);
      return attempt(false);
    }
  }

  private afterFailure(err: unknown): void {
    this.held.clear();
    // Our own errors (unknown model, a load that failed and cleaned up) leave the engine as it is.
    if (err instanceof ApiError) return;
    const kind = classifyEngineError(err);
    if (kind === 'context' || kind === 'invalid_request' || kind === 'aborted') return;
    // "Reload the engine, fail the response, keep serving": the next request loads afresh.
    const engine = this.engine;
    this.loaded = null;
    if (kind === 'device_lost' || kind === 'gpu_memory') this.engine = null;
    void engine?.unload().catch(noop);
  }
}
