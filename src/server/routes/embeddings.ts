/**
 * `POST /v1/embeddings`, as OpenAI's, over the runtime's embedding models (`/v1/models` lists
 * them with `"type": "embedding"`): `encoding_format` `float` or `base64` (little-endian
 * float32, what the openai SDKs ask for by default), `dimensions` only for a model trained to
 * be shortened. Inputs are text: token arrays need the model's tokenizer, which no engine
 * here exposes. A provider's model (`<provider>/<upstream id>`) embeds on its server: its
 * limits and `dimensions` are the upstream's to check (its refusal comes back naming it).
 */
import { EmbeddingRequest, type EmbeddingResponse } from '../../protocol/embeddings';
import { invalidRequest, notFound } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { estimateTokens } from '../files/chunk-text';
import type { ServerState } from '../state/server-state';
import { readBody } from './http/read-json';

/** OpenAI's limit of tokens over all inputs of one request. */
const MAX_REQUEST_TOKENS = 300_000;

export async function createEmbeddings(state: ServerState, request: Request): Promise<Response> {
  const body = await readBody(request, EmbeddingRequest, false);
  const embedder = state.embedders.get(body.model) ?? state.providers?.embedder(body.model);
  if (!embedder) {
    const chat = state.models.has(body.model);
    throw notFound(
      chat
        ? `The model '${body.model}' does not make embeddings. Embedding models: ${[...state.embedders.keys()].join(', ') || 'none in this runtime'}.`
        : `The model '${body.model}' does not exist or you do not have access to it.`,
      'model',
      Codes.modelNotFound,
    );
  }
  const inputs = typeof body.input === 'string' ? [body.input] : body.input;
  if (inputs.some((i) => typeof i !== 'string'))
    throw invalidRequest("Token arrays are not supported as 'input' by the local runtime: send the text.", 'input', Codes.invalidValue);
  const texts = inputs as string[];
  const { info } = embedder;
  const remote = info.provider !== undefined;
  if (!remote && body.dimensions !== undefined && (!info.shortens || body.dimensions > info.dimensions))
    throw invalidRequest(
      info.shortens
        ? `'dimensions' may be at most ${info.dimensions} for ${info.id}.`
        : `The model ${info.id} makes vectors of ${info.dimensions} dimensions only; it cannot shorten them. Leave out 'dimensions'.`,
      'dimensions',
      Codes.invalidValue,
    );
  let total = 0;
  for (const [i, text] of texts.entries()) {
    const tokens = estimateTokens(text);
    total += tokens;
    if (!remote && tokens > info.max_input_tokens)
      throw invalidRequest(
        `Invalid 'input[${i}]': about ${tokens} tokens, more than the ${info.max_input_tokens} ${info.id} reads. Shorten the input or split it.`,
        typeof body.input === 'string' ? 'input' : `input[${i}]`,
        Codes.contextLengthExceeded,
      );
  }
  if (total > MAX_REQUEST_TOKENS)
    throw invalidRequest(`The inputs have about ${total} tokens in all; at most ${MAX_REQUEST_TOKENS} per request. Send them in several requests.`, 'input', Codes.invalidValue);
  const { vectors, promptTokens } = await embedder.embed(texts, { kind: 'document', signal: request.signal, ...(remote && body.dimensions !== undefined ? { dimensions: body.dimensions } : {}) });
  const format = body.encoding_format ?? 'float';
  const answer: EmbeddingResponse = {
    object: 'list',
    data: vectors.map((vector, index) => ({ object: 'embedding', index, embedding: encode(shorten(vector, body.dimensions), format) })),
    model: info.id,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
  return Response.json(answer);
}

/** The first `dimensions` components, normalised again (how Matryoshka-trained vectors are shortened). */
function shorten(vector: Float32Array, dimensions: number | undefined): Float32Array {
  if (dimensions === undefined || dimensions >= vector.length) return vector;
  const cut = vector.slice(0, dimensions);
  const norm = Math.hypot(...cut) || 1;
  return cut.map((v) => v / norm);
}

function encode(vector: Float32Array, format: 'float' | 'base64'): number[] | string {
  if (format === 'float') return Array.from(vector);
  // Little-endian float32, as the SDKs decode it (typed arrays use the CPU's order: little-endian on every browser's).
  const bytes = new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
