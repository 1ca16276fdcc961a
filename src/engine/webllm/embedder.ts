/**
 * web-llm's embedding models on WebGPU (snowflake-arctic-embed, compiled by MLC): an Embedder
 * (ports/embedder.ts) for `/v1/embeddings` and file search, in an MLC engine of its own (the
 * chat engine keeps its model; the small embedder takes ~240 MB of GPU memory beside it).
 *
 * Facts it relies on (web-llm 0.2.86, `lib/index.js`): `embeddings.create({ input })` returns
 * the raw `[CLS]` state, not normalised (normalised here); it refuses `dimensions`, `user`
 * and base64, and an input over the model's 512-token window
 * (`EmbeddingExceedContextWindowSizeError`); web-llm's own example frames inputs as
 * `[CLS] … [SEP]`, queries with arctic-embed's retrieval instruction.
 */
import type { AppConfig, MLCEngineConfig } from '@mlc-ai/web-llm';
import type { Embedder, EmbedderInfo, EmbedOptions, Embedding } from '../../ports/embedder';
import { raceAbort } from '../../shared/abort';
import { loadOnce } from '../../shared/load-once';
import { ApiError, serverError } from '../../shared/api-error';
import { embedWithin } from '../embed-retry';
import { Codes } from '../../shared/error-codes';
import { generationError, loadError, webGpuUnavailable } from '../engine-errors';
import { detectWebGpu, type WebGpuSupport } from '../webgpu-support';
import { mirrorRecord } from './catalog';
import { EMBEDDING_RECORDS } from './embedding-records';
import { oneAtATime } from '../../shared/one-at-a-time';

/** The part of web-llm's engine an embedder uses; its `MLCEngine` has it. */
export interface MLCEmbeddingEngineLike {
  reload(modelId: string): Promise<void>;
  unload(): Promise<void>;
  embeddings: { create(request: { input: string[]; model?: string }): Promise<{ data: Array<{ index: number; embedding: number[] }>; usage: { prompt_tokens: number } }> };
}

export interface WebLlmEmbedderEntry {
  id: string;
  label: string;
  dimensions: number;
  vramBytes: number;
  downloadBytes: number;
}

/** The small builds (batch 4): a few hundred MB of GPU memory rather than one to one and a half GB. */
export const WEBLLM_EMBEDDING_CATALOG: readonly WebLlmEmbedderEntry[] = [
  { id: 'snowflake-arctic-embed-s-q0f32-MLC-b4', label: 'Arctic Embed S (embeddings, GPU)', dimensions: 384, vramBytes: 238_710_000, downloadBytes: 133_000_000 },
  { id: 'snowflake-arctic-embed-m-q0f32-MLC-b4', label: 'Arctic Embed M (embeddings, GPU)', dimensions: 768, vramBytes: 539_400_000, downloadBytes: 436_000_000 },
];

const QUERY_PREFIX = 'Represent this sentence for searching relevant passages: ';
/** arctic-embed's window is 512 tokens with CLS and SEP; the estimate of a chunk's tokens errs, so inputs are cut well before. */
const MAX_INPUT_TOKENS = 400;

export interface WebLlmEmbedderOptions {
  modelBase?: string;
  origin?: string;
  createEngine?: (config: MLCEngineConfig) => Promise<MLCEmbeddingEngineLike>;
  detectGpu?: () => Promise<WebGpuSupport>;
}

export class WebLlmEmbedder implements Embedder {
  readonly info: EmbedderInfo;
  readonly #engine = loadOnce(() => this.#load());
  /** One embedding call at a time: the engine has one model context. */
  readonly #serial = oneAtATime();
  readonly #appConfig: AppConfig;

  constructor(
    private readonly entry: WebLlmEmbedderEntry,
    private readonly options: WebLlmEmbedderOptions = {},
  ) {
    this.info = {
      id: entry.id,
      engine: 'web-llm',
      owned_by: 'Snowflake',
      created: Math.floor(Date.parse('2024-04-16T00:00:00Z') / 1000),
      dimensions: entry.dimensions,
      max_input_tokens: MAX_INPUT_TOKENS,
      shortens: false,
      label: entry.label,
      download_bytes: entry.downloadBytes,
    };
    const record = EMBEDDING_RECORDS.find((r) => r.model_id === entry.id);
    if (!record) throw new Error(`No web-llm record for ${entry.id}.`);
    const base = options.modelBase ? new URL(options.modelBase, options.origin ?? globalThis.location?.href).href : null;
    this.#appConfig = { model_list: [base ? mirrorRecord(record, base) : { ...record }], cacheBackend: 'cache' };
  }

  embed(inputs: readonly string[], options: EmbedOptions): Promise<Embedding> {
    return this.#serial(() => this.#embed(inputs, options));
  }

  async #embed(inputs: readonly string[], { kind, signal, truncate }: EmbedOptions): Promise<Embedding> {
    signal.throwIfAborted();
    const engine = await this.#loaded(signal);
    const frame = (text: string) => `[CLS] ${kind === 'query' ? QUERY_PREFIX : ''}${text} [SEP]`;
    let answer;
    try {
      answer = await embedWithin(inputs, { truncate, model: this.entry.id, maxTokens: 512 }, isTooLong, (texts) => engine.embeddings.create({ input: texts.map(frame), model: this.entry.id }));
    } catch (err) {
      throw err instanceof ApiError ? err : generationError(err, { model: this.entry.id });
    }
    const vectors = [...answer.data].sort((a, b) => a.index - b.index).map((d) => normalized(d.embedding));
    if (vectors.length !== inputs.length) throw serverError(`${this.entry.id} gave ${vectors.length} vectors for ${inputs.length} inputs.`, Codes.engineError);
    return { vectors, promptTokens: answer.usage.prompt_tokens };
  }

  /** The loaded engine: loaded once, on first use; a failed load is tried again next time. The caller may stop waiting; the load goes on. */
  #loaded(signal: AbortSignal): Promise<MLCEmbeddingEngineLike> {
    return raceAbort(this.#engine(), signal);
  }

  async #load(): Promise<MLCEmbeddingEngineLike> {
    const gpu = await (this.options.detectGpu ?? detectWebGpu)();
    if (!gpu.usable) throw webGpuUnavailable(gpu.reason);
    const config: MLCEngineConfig = { appConfig: this.#appConfig };
    const create = this.options.createEngine ?? (async (c: MLCEngineConfig) => new (await import('@mlc-ai/web-llm')).MLCEngine(c));
    const engine = await create(config);
    try {
      await engine.reload(this.entry.id);
    } catch (err) {
      await engine.unload().catch(() => undefined);
      throw loadError(err, { model: this.entry.id, variantId: this.entry.id, vramBytes: this.entry.vramBytes, downloadBytes: this.entry.downloadBytes });
    }
    return engine;
  }
}

function normalized(values: readonly number[]): Float32Array {
  const vector = Float32Array.from(values);
  let norm = 0;
  for (const v of vector) norm += v * v;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  return vector;
}

/** web-llm's `EmbeddingExceedContextWindowSizeError`: an input over the model's 512 tokens. */
function isTooLong(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'EmbeddingExceedContextWindowSizeError' || /context window size/i.test(err instanceof Error ? err.message : String(err));
}
