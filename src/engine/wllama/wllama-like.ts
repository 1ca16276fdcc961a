/**
 * The part of `@wllama/wllama` 3.13's `Wllama` the adapter uses: what a test fake
 * implements. Field names are wllama's (llama-server's OpenAI-compatible JSON), reduced to
 * what is read. `engine.ts` checks that the real class satisfies it.
 *
 * What wllama 3.13 does behind these calls, as measured in Chromium 156 (see
 * `engine.ts` for how the adapter relies on it):
 * - `loadModelFromUrl` downloads into its cache (OPFS, keyed by URL; `progressCallback`
 *   every ~100 ms), then starts a worker running llama.cpp's server loop in WebAssembly and
 *   loads the file. A missing file rejects with `Failed to fetch <url>: HTTP 404`; a file
 *   that is not a GGUF model loads "successfully" with `n_vocab: 0`; a wasm URL that does
 *   not answer leaves the promise pending forever (`exit()` then rejects it).
 * - `createCompletion({ stream: true })` returns an async iterable of chunks. Each read of
 *   the worker runs one step of llama.cpp's loop, so a chunk is one sampled token (text `''`
 *   while a stop string or a UTF-8 character is incomplete, and for the EOS token), then a
 *   last chunk with `finish_reason`, `usage` and `timings`. With `return_progress` the first
 *   chunks carry `prompt_progress` (`total` prompt tokens, `cache` reused from the KV cache)
 *   before any token. `abortSignal` is checked before each read: the iterator throws an
 *   `AbortError` after at most one more token.
 * - llama.cpp's slot keeps the KV cache of its last request (prompt and sampled tokens) and a
 *   new prompt reuses the longest common token prefix with it (`cache_prompt`, on by
 *   default; always at least the last prompt token is evaluated again): `prompt_progress.cache`
 *   and `usage.prompt_tokens_details.cached_tokens` say how many. Measured: a second
 *   request for a 7-token prompt reports `cache: 6`; the cache is gone with the worker.
 * - `n_probs: n` (n ≥ 1) gives every token chunk `choices[0].logprobs.content`: one entry
 *   `{token, logprob, bytes, top_logprobs}` with the n most likely tokens (the sampled one
 *   among them when it is likely enough), log probabilities of the model's distribution before
 *   sampling (the same at any temperature); the last chunk has `logprobs: null`.
 * - `exit()` terminates the worker at once and fails whatever was waiting on it.
 */

export interface WllamaProgress {
  /** Bytes downloaded so far (all shards). */
  loaded: number;
  /** Total bytes, from `Content-Length`; 0 when the server sent none. */
  total: number;
}

export type KvCacheType = 'f16' | 'q8_0';

export interface WllamaLoadParams {
  /** Context size llama.cpp allocates its KV cache for. */
  n_ctx: number;
  /** Layers offloaded to WebGPU; 0 = CPU only (and WebGPU is not even initialised). */
  n_gpu_layers?: number;
  /**
   * llama.cpp's threads. Above 1 wllama starts a pthread pool of that size — only where
   * SharedArrayBuffer exists (cross-origin isolation); otherwise it runs one thread. Its
   * default is half the cores.
   */
  n_threads?: number;
  /** Element type of the KV cache's keys and values (llama.cpp's default: f16). */
  cache_type_k?: KvCacheType;
  cache_type_v?: KvCacheType;
  /** Flash attention; a quantized V cache needs it on. Unset: llama.cpp decides. */
  flash_attn?: boolean;
  progressCallback?: (progress: WllamaProgress) => void;
  /** Aborts the download (not the load that follows it). */
  signal?: AbortSignal;
}

export interface WllamaContextInfo {
  /** 0 when the file was not a model llama.cpp could read. */
  n_vocab: number;
  /** The context size asked for at load. */
  n_ctx: number;
  /** The context the model was trained with (`{arch}.context_length`). */
  n_ctx_train: number;
  /** Whether llama.cpp prepends BOS to every prompt it tokenizes. */
  add_bos_token: boolean;
}

export interface WllamaCompletionParams {
  prompt: string;
  stream: true;
  /** llama.cpp's `n_predict`; omitted = until EOS or the context is full. */
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string[];
  abortSignal?: AbortSignal;
  /** Ask for `prompt_progress` chunks before the first token. */
  return_progress?: boolean;
  /** Reuse the slot's KV cache for the common prefix (llama.cpp's default is true). */
  cache_prompt?: boolean;
  /** Report each token's logprob with this many most likely alternatives (0: none). */
  n_probs?: number;
  /** A GBNF grammar the sampler holds the output to (llama.cpp's `grammar`). */
  grammar?: string;
}

/** A token and its log probability, as llama.cpp's server reports it. */
export interface WllamaTokenLogprob {
  token: string;
  logprob: number;
  bytes: number[] | null;
}

export interface WllamaCompletionChunk {
  choices: Array<{
    text: string;
    finish_reason: 'stop' | 'length' | 'content_filter' | null;
    /** With `n_probs`: the chunk's token (one entry), its alternatives in `top_logprobs`. */
    logprobs?: { content: Array<WllamaTokenLogprob & { top_logprobs: WllamaTokenLogprob[] }> | null } | null;
  }>;
  usage?: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens: number } } | null;
  timings?: { prompt_n: number; prompt_ms: number; prompt_per_second: number; predicted_per_second: number };
  prompt_progress?: { total: number; cache: number; processed: number; time_ms: number };
}

export interface WllamaLike {
  loadModelFromUrl(url: string, params: WllamaLoadParams): Promise<void>;
  getLoadedContextInfo(): WllamaContextInfo;
  /** The GGUF's `tokenizer.chat_template` (Jinja source), or null when it has none. */
  getChatTemplate(): string | null;
  /** The GGUF's metadata, every value as a string (`meta`). */
  getModelMetadata(): { meta: Record<string, string> };
  /** Threads the loaded model runs with (1 when wllama could not start its pool). */
  getNumThreads(): number;
  createCompletion(params: WllamaCompletionParams): Promise<AsyncIterable<WllamaCompletionChunk>>;
  exit(): Promise<void>;
  cacheManager: { delete(url: string): Promise<void> };
}

/** One file in wllama's model cache (`CacheManager.list()`). */
export interface WllamaCacheEntry {
  /** Bytes stored (less than `originalSize` when a download was cut off). */
  size: number;
  metadata: { originalURL: string; originalSize: number };
}

/**
 * wllama's model cache (OPFS, one file per URL), as the engine uses it outside a load:
 * which models are downloaded, deleting one. A `CacheManager` of `@wllama/wllama`.
 */
export interface WllamaCacheLike {
  list(): Promise<WllamaCacheEntry[]>;
  /** Deletes the file cached for a URL (nothing when there is none). */
  delete(url: string): Promise<void>;
}
