/**
 * A GGUF embedding model on the CPU engine (llama.cpp in WebAssembly): an Embedder
 * (ports/embedder.ts) for `/v1/embeddings` and file search. It runs in a `Wllama` of its own,
 * loaded with `embeddings: true` on first use (llama.cpp's server refuses completions on an
 * embedding context, and a good embedder is another file than the chat model anyway).
 *
 * Facts it relies on (wllama 3.13, `src/wllama.ts` and its llama.cpp server):
 * - `createEmbedding({ input: string[] })` answers OpenAI's shape, pooled as the GGUF says
 *   (or `pooling_type`), L2-normalised (`embd_normalize: 2`, the default), one vector per input.
 * - A non-causal (BERT-like) model needs a whole input in one physical batch: `n_batch` and
 *   `n_ubatch` are set to the context size, so inputs up to it embed whole.
 * - The input is tokenized with special tokens (BOS/CLS added as the model asks).
 */
import type { Embedder, EmbedderInfo, EmbedOptions, Embedding } from '../../ports/embedder';
import { raceAbort } from '../../shared/abort';
import { loadOnce } from '../../shared/load-once';
import { ApiError, serverError } from '../../shared/api-error';
import { embedWithin } from '../embed-retry';
import { Codes } from '../../shared/error-codes';
import { downloadStalled, notAGgufModel, noModelSource, wllamaGenerationError, wllamaLoadError } from './errors';
import { ggufUrl } from './gguf-catalog';
import type { WllamaContextInfo, WllamaLoadParams } from './wllama-like';
import { oneAtATime } from '../../shared/one-at-a-time';

export interface GgufEmbeddingEntry {
  id: string;
  label: string;
  owned_by: string;
  created: number;
  file: string;
  repo?: string;
  downloadBytes: number;
  dimensions: number;
  /** Tokens one input may have (the context it is loaded with). */
  contextTokens: number;
  pooling: 'mean' | 'cls' | 'last';
  /** Put before a query (models trained with an instruction, e.g. BGE's). */
  queryPrefix?: string;
  hidden?: boolean;
}

/** The part of `Wllama` an embedder uses; the real class satisfies it. */
export interface WllamaEmbeddingLike {
  loadModelFromUrl(url: string, params: WllamaLoadParams & { embeddings: true; pooling_type: 'mean' | 'cls' | 'last'; n_batch: number; n_ubatch: number }): Promise<void>;
  getLoadedContextInfo(): WllamaContextInfo;
  createEmbedding(params: { input: string[]; embd_normalize?: number }): Promise<{ data: Array<{ index: number; embedding: number[] | string }>; usage: { prompt_tokens: number } }>;
  exit(): Promise<void>;
  cacheManager: { delete(url: string): Promise<void> };
}

export interface WllamaEmbedderOptions {
  createWllama: () => WllamaEmbeddingLike | Promise<WllamaEmbeddingLike>;
  /** Base URL of a mirror holding the `.gguf` files side by side; default Hugging Face. */
  modelBase?: string;
  origin?: string;
  threads?: number;
  /** A load fails when no download progress comes for this long (default 60 s). */
  loadTimeoutMs?: number;
}

const MB = 1_000_000;

/**
 * Embedding GGUFs the CPU engine serves. bge-small-en-v1.5 (BAAI, MIT): 384 dimensions, 512
 * tokens, CLS pooling, a query instruction; its size is the repository's listed one, as known
 * when written (these machines cannot reach Hugging Face to check).
 */
export const GGUF_EMBEDDING_CATALOG: readonly GgufEmbeddingEntry[] = [
  {
    id: 'bge-small-en-v1.5-Q8_0-GGUF',
    label: 'BGE small EN v1.5 (embeddings, CPU)',
    owned_by: 'BAAI',
    created: Math.floor(Date.parse('2023-09-12T00:00:00Z') / 1000),
    file: 'bge-small-en-v1.5-q8_0.gguf',
    repo: 'CompendiumLabs/bge-small-en-v1.5-gguf',
    downloadBytes: 37 * MB,
    dimensions: 384,
    contextTokens: 512,
    pooling: 'cls',
    queryPrefix: 'Represent this sentence for searching relevant passages: ',
  },
];

/** Id of the tiny generated llama (`test/fixtures/make-tiny-gguf.ts`) loaded as an embedding model: real pooling over 64 dimensions, vectors without meaning. */
export const TINY_EMBED_MODEL_ID = 'test-tiny-embed';

export const GGUF_EMBEDDING_TEST_CATALOG: readonly GgufEmbeddingEntry[] = [
  {
    id: TINY_EMBED_MODEL_ID,
    label: 'Tiny random llama as an embedder (test)',
    owned_by: 'local-test',
    created: 1_700_000_000,
    file: 'test-tiny-llama.gguf',
    downloadBytes: 492_864,
    dimensions: 64,
    contextTokens: 2048,
    pooling: 'mean',
    hidden: true,
  },
];

export class WllamaEmbedder implements Embedder {
  readonly info: EmbedderInfo;
  readonly #loaded = loadOnce(() => this.#load());
  /** One embedding call at a time: llama.cpp's server has one slot. */
  /** One embedding call at a time: the engine has one model context. */
  readonly #serial = oneAtATime();

  constructor(
    private readonly entry: GgufEmbeddingEntry,
    private readonly options: WllamaEmbedderOptions,
  ) {
    this.info = {
      id: entry.id,
      engine: 'wllama',
      owned_by: entry.owned_by,
      created: entry.created,
      dimensions: entry.dimensions,
      // The BOS/CLS and SEP tokens the tokenizer adds take a place each.
      max_input_tokens: entry.contextTokens - 2,
      shortens: false,
      label: entry.label,
      download_bytes: entry.downloadBytes,
      ...(entry.hidden ? { hidden: true } : {}),
    };
  }

  embed(inputs: readonly string[], options: EmbedOptions): Promise<Embedding> {
    return this.#serial(() => this.#embed(inputs, options));
  }

  async #embed(inputs: readonly string[], { kind, signal, truncate }: EmbedOptions): Promise<Embedding> {
    signal.throwIfAborted();
    const wllama = await this.#model(signal);
    const prefix = kind === 'query' ? (this.entry.queryPrefix ?? '') : '';
    let answer;
    try {
      answer = await embedWithin(inputs, { truncate, model: this.entry.id, maxTokens: this.info.max_input_tokens }, isTooLong, (texts) =>
        wllama.createEmbedding({ input: texts.map((t) => prefix + t), embd_normalize: 2 }),
      );
    } catch (err) {
      throw err instanceof ApiError ? err : wllamaGenerationError(err, { model: this.entry.id, sizeBytes: this.entry.downloadBytes });
    }
    const vectors = [...answer.data].sort((a, b) => a.index - b.index).map((d) => toVector(d.embedding));
    if (vectors.length !== inputs.length || vectors.some((v) => v.length !== this.entry.dimensions))
      throw serverError(`${this.entry.id} gave ${vectors.length} vectors of ${vectors[0]?.length ?? 0} dimensions for ${inputs.length} inputs; expected ${this.entry.dimensions}.`, Codes.engineError);
    return { vectors, promptTokens: answer.usage.prompt_tokens };
  }

  /** The loaded model: loaded once, on first use; a failed load is tried again next time. The caller may stop waiting; the load goes on. */
  #model(signal: AbortSignal): Promise<WllamaEmbeddingLike> {
    return raceAbort(this.#loaded(), signal);
  }

  async #load(): Promise<WllamaEmbeddingLike> {
    const entry = this.entry;
    const url = ggufUrl(entry, this.options.modelBase, this.options.origin);
    if (!url) throw noModelSource(entry.id, entry.file);
    const wllama = await this.options.createWllama();
    const timeoutMs = this.options.loadTimeoutMs ?? 60_000;
    const stall = new AbortController();
    let loaded = 0;
    let timer = setTimeout(() => stall.abort(), timeoutMs);
    try {
      await wllama.loadModelFromUrl(url, {
        n_ctx: entry.contextTokens,
        n_batch: entry.contextTokens,
        n_ubatch: entry.contextTokens,
        embeddings: true,
        pooling_type: entry.pooling,
        n_gpu_layers: 0,
        n_threads: this.options.threads ?? 1,
        signal: stall.signal,
        progressCallback: (p) => {
          loaded = p.loaded;
          clearTimeout(timer);
          timer = setTimeout(() => stall.abort(), timeoutMs);
        },
      });
    } catch (err) {
      void wllama.exit().catch(() => undefined);
      if (stall.signal.aborted) throw downloadStalled(entry.id, url, timeoutMs, loaded);
      throw wllamaLoadError(err, { model: entry.id, url, downloadBytes: entry.downloadBytes, downloaded: loaded >= entry.downloadBytes });
    } finally {
      clearTimeout(timer);
    }
    if (!(wllama.getLoadedContextInfo().n_vocab > 0)) {
      // wllama cached the bad file under its URL: without this every retry would fail the same way.
      await wllama.cacheManager.delete(url).catch(() => undefined);
      void wllama.exit().catch(() => undefined);
      throw notAGgufModel(entry.id, url);
    }
    return wllama;
  }
}

/** An embedding as llama.cpp's server answers it: numbers, or base64 little-endian float32. */
function toVector(embedding: number[] | string): Float32Array {
  if (Array.isArray(embedding)) return Float32Array.from(embedding);
  const binary = atob(embedding);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Float32Array(bytes.buffer);
}

/** llama.cpp's server refusing an input longer than the batch or the context. */
function isTooLong(err: unknown): boolean {
  return /too large to process|exceeds the available context|context size|too long/i.test(err instanceof Error ? err.message : String(err));
}
