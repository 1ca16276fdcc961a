/**
 * The `test-embedding` model: deterministic vectors with no download, for tests of
 * `/v1/embeddings` and hybrid file search (registered with the test models, like
 * `test-scripted`). A text's vector is its words hashed into 384 dimensions (feature hashing,
 * a signed count per bucket), L2-normalised: texts that share words are close, texts that
 * share none are nearly orthogonal — a real, if simple, notion of similarity, and the same
 * text always gives the same vector. It may be shortened with `dimensions` (the first n
 * components, normalised again).
 */
import type { Embedder, EmbedderInfo, EmbedOptions, Embedding } from '../ports/embedder';

export const TEST_EMBEDDING_MODEL_ID = 'test-embedding';
export const TEST_EMBEDDING_DIMENSIONS = 384;

/** FNV-1a, 32-bit: a stable hash of a word. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function testEmbedding(text: string, dimensions = TEST_EMBEDDING_DIMENSIONS): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const hash = fnv1a(word);
    vector[hash % dimensions]! += hash & 0x80000000 ? -1 : 1;
  }
  let norm = 0;
  for (const v of vector) norm += v * v;
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < dimensions; i++) vector[i]! *= scale;
  return vector;
}

export class TestEmbedder implements Embedder {
  readonly info: EmbedderInfo = {
    id: TEST_EMBEDDING_MODEL_ID,
    engine: 'scripted',
    owned_by: 'local-test',
    created: 1_700_000_000,
    dimensions: TEST_EMBEDDING_DIMENSIONS,
    max_input_tokens: 8192,
    shortens: true,
    hidden: true,
  };

  async embed(inputs: readonly string[], options: EmbedOptions): Promise<Embedding> {
    options.signal.throwIfAborted();
    return { vectors: inputs.map((text) => testEmbedding(text)), promptTokens: inputs.reduce((sum, t) => sum + Math.ceil(t.length / 4), 0) };
  }
}
