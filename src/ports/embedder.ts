/**
 * The embedder contract: a model that turns text into vectors, for `POST /v1/embeddings` and
 * for the embedding side of file search. Engines implement it next to their chat models
 * (web-llm's embedding models on WebGPU, a GGUF embedding model on the CPU engine, the
 * `test-embedding` model), and a provider's `/v1/embeddings` (engine/remote/).
 */

export interface EmbedderInfo {
  /** The model id clients send (`model`). */
  id: string;
  /** Which engine runs it (`/v1/models`' `engine`). */
  engine: string;
  owned_by: string;
  /** Unix seconds. */
  created: number;
  /** Length of the vectors it makes. */
  dimensions: number;
  /** The longest input it embeds whole, in its tokens; longer inputs are cut to it (file search) or refused (`/v1/embeddings`). */
  max_input_tokens: number;
  /** Whether `dimensions` may ask for shorter vectors (models trained for truncation); else a 400. */
  shortens: boolean;
  label?: string;
  hidden?: boolean;
  /** Bytes to download before first use, when known. */
  download_bytes?: number;
  /**
   * The provider, for a provider's model (`<provider>/<upstream id>`): its limits are the
   * upstream's to enforce. `dimensions` is 0 until its first vectors came back,
   * `max_input_tokens` is what file search cuts chunks to (the provider's context window, or
   * 8192), and a `dimensions` option is passed on for the upstream to honour or refuse.
   */
  provider?: string;
}

export interface EmbedOptions {
  /** Queries and documents are embedded differently by some models (a query prefix). */
  kind: 'query' | 'document';
  signal: AbortSignal;
  /**
   * An input longer than the model reads is cut until it fits (file search: token counts are
   * estimates until the model's tokenizer sees the text). Otherwise it is a 400
   * `context_length_exceeded` (`/v1/embeddings`, as OpenAI answers).
   */
  truncate?: boolean;
  /** Shorter vectors, asked of a model that makes them itself (a provider's: passed on upstream). */
  dimensions?: number;
}

export interface Embedding {
  /** One L2-normalised vector per input, in order. */
  vectors: Float32Array[];
  /** Input tokens, as the model counted them (or estimated: ~4 characters a token). */
  promptTokens: number;
}

export interface Embedder {
  readonly info: EmbedderInfo;
  /** Embeds `inputs` (none empty); rejects with an ApiError a person can act on. */
  embed(inputs: readonly string[], options: EmbedOptions): Promise<Embedding>;
}
