/**
 * Fakes at the embedding engines' ports: web-llm's MLC engine as an embedder uses it (raw,
 * unnormalised vectors, as web-llm returns the `[CLS]` state) and wllama as an embedding
 * context (llama.cpp's server answer, L2-normalised). Each records what it was asked.
 */
import type { MLCEmbeddingEngineLike } from '../../src/engine/webllm';
import type { WllamaEmbeddingLike } from '../../src/engine/wllama';

/** A vector from a text: its length and character sum in the first two components, the rest ones. */
function rawVector(text: string, dims: number): number[] {
  const v = Array.from({ length: dims }, () => 1);
  v[0] = text.length;
  v[1] = [...text].reduce((s, c) => s + c.charCodeAt(0), 0) % 97;
  return v;
}

export class FakeMlcEmbedder implements MLCEmbeddingEngineLike {
  readonly reloads: string[] = [];
  readonly inputs: string[][] = [];
  constructor(private readonly dims: number) {}
  async reload(modelId: string): Promise<void> {
    this.reloads.push(modelId);
  }
  async unload(): Promise<void> {}
  embeddings = {
    create: async (request: { input: string[] }) => {
      this.inputs.push(request.input);
      // Answered out of order: the embedder must sort by index.
      const data = request.input.map((text, index) => ({ index, embedding: rawVector(text, this.dims) })).reverse();
      return { data, usage: { prompt_tokens: request.input.join(' ').length } };
    },
  };
}

export class FakeWllamaEmbedder implements WllamaEmbeddingLike {
  readonly loads: Array<{ url: string; params: Parameters<WllamaEmbeddingLike['loadModelFromUrl']>[1] }> = [];
  readonly inputs: string[][] = [];
  exited = false;
  readonly deleted: string[] = [];
  cacheManager = { delete: async (url: string) => void this.deleted.push(url) };
  constructor(
    private readonly dims: number,
    private readonly nVocab = 365,
    /** Tokens (one a character, as the tiny GGUF's vocabulary has) an input may have, as llama.cpp's physical batch. */
    private readonly batchTokens = Infinity,
  ) {}
  async loadModelFromUrl(url: string, params: Parameters<WllamaEmbeddingLike['loadModelFromUrl']>[1]): Promise<void> {
    this.loads.push({ url, params });
    params.progressCallback?.({ loaded: 100, total: 100 });
  }
  getLoadedContextInfo() {
    return { n_vocab: this.nVocab, n_ctx: 2048, n_ctx_train: 2048, add_bos_token: true };
  }
  async createEmbedding(params: { input: string[] }) {
    this.inputs.push(params.input);
    const long = params.input.find((t) => t.length > this.batchTokens);
    if (long) throw new Error(`input (${long.length} tokens) is too large to process. increase the physical batch size (current batch size: ${this.batchTokens})`);
    const data = params.input.map((text, index) => {
      const raw = rawVector(text, this.dims);
      const norm = Math.hypot(...raw);
      return { index, embedding: raw.map((x) => x / norm) };
    });
    return { data, usage: { prompt_tokens: params.input.length * 3 } };
  }
  async exit(): Promise<void> {
    this.exited = true;
  }
}
