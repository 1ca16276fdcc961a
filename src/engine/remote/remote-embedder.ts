/**
 * A provider's model as an embedder: its upstream `POST /embeddings` (OpenAI's shape:
 * `input` an array of strings, `model` the upstream id, `encoding_format: "float"`, which
 * every OpenAI-compatible server speaks), at most EMBED_BATCH inputs a request, one request
 * after another, each abortable. The requests go through upstream-http.ts as the chat path's
 * do: the key only to the provider's own origin, redirects refused, the answer read up to a
 * limit, failures naming the provider.
 *
 * The answer is untrusted: it must hold one finite vector per input, all of one length,
 * within MAX_DIMENSIONS; anything else fails naming the provider. Vectors are L2-normalised
 * (as the port promises; OpenAI's and llama.cpp's already are), and the model's length is
 * learnt from its first answer (`info.dimensions`, 0 until then).
 */
import type { Embedder, EmbedderInfo, EmbedOptions, Embedding } from '../../ports/embedder';
import { ApiError } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { estimateTokens } from '../token-estimate';
import { streamFailure, type ProviderFacts } from './upstream-errors';
import { upstreamJson, type UpstreamOptions } from './upstream-http';

/** Inputs a request: OpenAI takes 2,048, smaller servers far fewer at once. */
export const EMBED_BATCH = 64;
/** Longer vectors are refused (the longest common models make 4,096). */
export const MAX_DIMENSIONS = 16_384;
/** What file search cuts an input to when the provider's context window is not given. */
const DEFAULT_MAX_INPUT_TOKENS = 8192;
/** An answer of EMBED_BATCH vectors of 4,096 floats as JSON text is ~6 MiB; room for more digits. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export interface RemoteEmbedderTarget {
  provider: ProviderFacts;
  upstreamModel: string;
  /** The provider's context window, when its settings give one. */
  contextWindow?: number;
  options: UpstreamOptions;
}

export class RemoteEmbedder implements Embedder {
  readonly info: EmbedderInfo;

  constructor(private readonly target: RemoteEmbedderTarget) {
    const { provider, upstreamModel, contextWindow } = target;
    this.info = {
      id: `${provider.id}/${upstreamModel}`,
      engine: 'remote',
      owned_by: provider.id,
      created: 0,
      dimensions: 0,
      max_input_tokens: contextWindow ?? DEFAULT_MAX_INPUT_TOKENS,
      shortens: true,
      label: upstreamModel,
      provider: provider.id,
    };
  }

  async embed(inputs: readonly string[], options: EmbedOptions): Promise<Embedding> {
    const vectors: Float32Array[] = [];
    let promptTokens = 0;
    for (let i = 0; i < inputs.length; i += EMBED_BATCH) {
      options.signal.throwIfAborted();
      const batch = inputs.slice(i, i + EMBED_BATCH);
      const answer = await this.request(batch, options);
      vectors.push(...answer.vectors);
      promptTokens += answer.promptTokens;
    }
    if (options.dimensions === undefined && vectors[0]) this.info.dimensions = vectors[0].length;
    return { vectors, promptTokens };
  }

  private async request(batch: readonly string[], options: EmbedOptions): Promise<Embedding> {
    const { provider, upstreamModel } = this.target;
    const body = {
      model: upstreamModel,
      input: batch,
      encoding_format: 'float',
      ...(options.dimensions !== undefined ? { dimensions: options.dimensions } : {}),
    };
    const answer = await upstreamJson(provider, { method: 'POST', path: '/embeddings', body, signal: options.signal, model: upstreamModel, maxBytes: MAX_ANSWER_BYTES }, this.target.options);
    const read = readEmbeddings(answer, batch.length);
    if (typeof read === 'string') throw streamFailure(provider, `its answer to POST /embeddings for '${upstreamModel}' ${read}`);
    const length = read.vectors[0]!.length;
    if (options.dimensions !== undefined && length !== options.dimensions)
      throw new ApiError({
        status: 400,
        type: 'invalid_request_error',
        code: Codes.invalidValue,
        param: 'dimensions',
        message: `Provider '${provider.id}' made vectors of ${length} dimensions where 'dimensions' asked for ${options.dimensions}: its model '${upstreamModel}' (or its server) does not shorten them. Leave out 'dimensions'.`,
      });
    return { vectors: read.vectors, promptTokens: read.promptTokens ?? batch.reduce((sum, text) => sum + estimateTokens(text), 0) };
  }
}

/**
 * The vectors of an embeddings answer, in input order (by each entry's `index` when they are
 * all there, else as listed), normalised; or why it is not one (a sentence's end).
 */
export function readEmbeddings(body: unknown, count: number): { vectors: Float32Array[]; promptTokens?: number } | string {
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return 'is not an embeddings list (no `data`). Check its address (it usually ends in /v1) and that the model embeds.';
  if (data.length !== count) return `has ${data.length} vectors for ${count} inputs.`;
  const entries = data.map((entry: unknown) => (typeof entry === 'object' && entry !== null ? (entry as { index?: unknown; embedding?: unknown }) : {}));
  const indexes = entries.map((e) => e.index);
  const ordered = indexes.every((x) => typeof x === 'number') && new Set(indexes).size === count && indexes.every((x) => Number.isInteger(x) && (x as number) >= 0 && (x as number) < count);
  const vectors: Float32Array[] = new Array<Float32Array>(count);
  for (const [position, entry] of entries.entries()) {
    const vector = vectorOf(entry.embedding);
    if (typeof vector === 'string') return vector;
    if (vector.length !== (vectors.find(Boolean) ?? vector).length) return 'has vectors of different lengths.';
    vectors[ordered ? (entry.index as number) : position] = normalise(vector);
  }
  const usage = typeof body === 'object' && body !== null ? (body as { usage?: { prompt_tokens?: unknown } }).usage : undefined;
  const tokens = usage?.prompt_tokens;
  return { vectors, ...(typeof tokens === 'number' && Number.isInteger(tokens) && tokens >= 0 ? { promptTokens: tokens } : {}) };
}

/** A vector as floats (base64 little-endian float32 too, for a server that sends it anyway), or why not. */
function vectorOf(embedding: unknown): Float32Array | string {
  let vector: Float32Array;
  if (Array.isArray(embedding)) {
    if (embedding.length > MAX_DIMENSIONS) return `has vectors longer than ${MAX_DIMENSIONS} dimensions.`;
    if (!embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) return 'has a vector that is not all numbers.';
    vector = Float32Array.from(embedding as number[]);
  } else if (typeof embedding === 'string') {
    if (embedding.length > Math.ceil((MAX_DIMENSIONS * 4) / 3) + 4) return `has vectors longer than ${MAX_DIMENSIONS} dimensions.`;
    let bytes: Uint8Array;
    try {
      bytes = Uint8Array.from(atob(embedding), (c) => c.charCodeAt(0));
    } catch {
      return 'has a vector that is neither numbers nor base64.';
    }
    if (bytes.length % 4 !== 0) return 'has a base64 vector that is not float32.';
    vector = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    if (!vector.every(Number.isFinite)) return 'has a vector that is not all numbers.';
  } else return 'has an entry without an `embedding`.';
  if (vector.length === 0) return 'has an empty vector.';
  return vector;
}

function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  if (sum === 0) return vector;
  const scale = 1 / Math.sqrt(sum);
  return vector.map((v) => v * scale);
}
