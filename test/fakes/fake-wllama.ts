/**
 * A scripted stand-in for wllama 3.13 at the `WllamaLike` boundary, for unit tests in Node.
 * It reproduces what the real one was measured to do (`wllama-like.ts`): download progress
 * then load, `n_vocab: 0` for a bad file, a `prompt_progress` chunk first, one chunk per
 * token (`''` for EOS), a last chunk with `finish_reason` + `usage` + `timings`, and the
 * abort signal checked before each chunk (an `AbortError` after at most one more token).
 *
 * Its slot keeps a KV cache as llama.cpp's does: one token per prompt character (plus BOS
 * when `add_bos_token`), then the sampled tokens; a new prompt reuses the longest common
 * prefix with it, always evaluating at least its last token again, and `exit()` drops it.
 * A script's `promptTokens`/`cachedTokens` override the counts. With `n_probs`, every token
 * chunk carries its logprob entry (token i: -(i % 5)/10, alternatives `alt k` at -k below).
 */
import type { WllamaCacheEntry, WllamaCacheLike, WllamaCompletionChunk, WllamaCompletionParams, WllamaContextInfo, WllamaLike, WllamaLoadParams } from '../../src/engine/wllama/wllama-like';

export interface FakeLoadScript {
  /** Download progress events to send, in bytes (default: one event at 100%). */
  progress?: Array<{ loaded: number; total: number }>;
  /** Reject the load with this error (after the progress events). */
  error?: Error;
  /** Never settle after the progress events (a wasm that does not start); `exit()` rejects it. */
  hang?: boolean;
  info?: Partial<WllamaContextInfo>;
  /** The GGUF's `tokenizer.chat_template` (default: none). */
  chatTemplate?: string;
  /** Where a finished download is written (as wllama writes the GGUF to OPFS under its URL). */
  cache?: FakeWllamaCache;
  /** No SharedArrayBuffer here: like wllama, run one thread whatever `n_threads` asked for. */
  noSharedMemory?: boolean;
  /** The GGUF metadata (default: a llama with 64-wide heads). */
  meta?: Record<string, string>;
}

/** wllama's model cache in memory: files by URL, with the size stored and the size expected. */
export class FakeWllamaCache implements WllamaCacheLike {
  readonly files = new Map<string, { size: number; originalSize: number }>();
  readonly deleted: string[] = [];

  /** Puts a file in the cache; `size` below `originalSize` is a download cut off part-way. */
  put(url: string, originalSize: number, size = originalSize): this {
    this.files.set(url, { size, originalSize });
    return this;
  }

  async list(): Promise<WllamaCacheEntry[]> {
    return [...this.files].map(([url, f]) => ({ size: f.size, metadata: { originalURL: url, originalSize: f.originalSize } }));
  }

  async delete(url: string): Promise<void> {
    this.deleted.push(url);
    this.files.delete(url);
  }
}

export interface FakeCompletionScript {
  /** Token texts; the fake adds `''` for EOS when `finish` is `stop`. */
  tokens: string[];
  finish?: 'stop' | 'length';
  promptTokens?: number;
  cachedTokens?: number;
  /** Fail when asked for this token index (after the prompt was accepted). */
  failAt?: { index: number; error: Error };
  /** Reject when the stream is first read (llama.cpp refusing the prompt). */
  refuse?: Error;
  /** Each chunk waits for `release()` (see `FakeWllama.release`) instead of coming at once. */
  gated?: boolean;
}

const BOS = '\u0000<s>';

/** The fake's logprob of output token `i` (and of its alternatives, below it). */
export function fakeLogprob(i: number): number {
  return 0 - (i % 5) / 10;
}

function abortError(): Error {
  const err = new Error('Operation aborted');
  err.name = 'AbortError';
  return err;
}

export class FakeWllama implements WllamaLike {
  readonly calls: string[] = [];
  readonly completions: WllamaCompletionParams[] = [];
  readonly deletedFromCache: string[] = [];
  loadParams: WllamaLoadParams | null = null;
  loadedUrl: string | null = null;
  exited = false;
  /** Chunks handed out so far by the current completion. */
  chunksRead = 0;

  private info: WllamaContextInfo | null = null;
  private rejectHang: ((err: Error) => void) | null = null;
  private gate: Array<() => void> = [];
  private scripts: FakeCompletionScript[];
  /** The slot's KV cache: the tokens of the last prompt and what was sampled after it. */
  private slot: string[] = [];

  cacheManager = {
    delete: async (url: string) => {
      this.deletedFromCache.push(url);
    },
  };

  constructor(
    private readonly loadScript: FakeLoadScript = {},
    completions: FakeCompletionScript[] = [],
  ) {
    this.scripts = [...completions];
  }

  /** Queues the script of the next completion. */
  script(completion: FakeCompletionScript): this {
    this.scripts.push(completion);
    return this;
  }

  /** Lets the next `n` gated chunks through. */
  release(n = 1): void {
    for (let i = 0; i < n; i++) {
      const open = this.gate.shift();
      if (open) open();
      else this.credit++;
    }
  }
  private credit = 0;

  async loadModelFromUrl(url: string, params: WllamaLoadParams): Promise<void> {
    this.calls.push('load');
    this.loadParams = params;
    this.loadedUrl = url;
    const total = 1000;
    for (const event of this.loadScript.progress ?? [{ loaded: total, total }]) {
      await Promise.resolve();
      if (params.signal?.aborted) throw abortError();
      params.progressCallback?.(event);
    }
    if (this.loadScript.error) throw this.loadScript.error;
    this.loadScript.cache?.put(url, total);
    if (this.loadScript.hang) {
      await new Promise<void>((_resolve, reject) => (this.rejectHang = reject));
    }
    this.info = { n_vocab: 365, n_ctx: params.n_ctx, n_ctx_train: 2048, add_bos_token: true, ...this.loadScript.info };
  }

  getLoadedContextInfo(): WllamaContextInfo {
    if (!this.info) throw new Error('loadModel() is not yet called');
    return { ...this.info };
  }

  getNumThreads(): number {
    if (!this.info) throw new Error('loadModel() is not yet called');
    const threads = this.loadParams?.n_threads ?? 1;
    return this.loadScript.noSharedMemory || threads <= 1 ? 1 : threads;
  }

  getChatTemplate(): string | null {
    if (!this.info) throw new Error('loadModel() is not yet called');
    return this.loadScript.chatTemplate ?? null;
  }

  getModelMetadata(): { meta: Record<string, string> } {
    if (!this.info) throw new Error('loadModel() is not yet called');
    return { meta: this.loadScript.meta ?? { 'general.architecture': 'llama', 'llama.embedding_length': '256', 'llama.attention.head_count': '4' } };
  }

  async createCompletion(params: WllamaCompletionParams): Promise<AsyncIterable<WllamaCompletionChunk>> {
    this.calls.push('createCompletion');
    if (this.exited || !this.info) throw new Error('loadModel() is not yet called');
    this.completions.push(params);
    const script = this.scripts.shift() ?? { tokens: ['Hello', ' world'] };
    this.chunksRead = 0;
    const prompt = [...(this.info.add_bos_token ? [BOS] : []), ...params.prompt];
    let reused = 0;
    while (reused < Math.min(prompt.length - 1, this.slot.length) && prompt[reused] === this.slot[reused]) reused++;
    const chunks = this.chunksOf(script, prompt.length, reused, params.n_probs ?? 0);
    const self = this;
    async function* stream(): AsyncGenerator<WllamaCompletionChunk> {
      for (let i = 0; i < chunks.length; i++) {
        if (params.abortSignal?.aborted) throw abortError();
        if (script.gated) await self.waitForGate();
        if (self.exited) throw new Error('The model was unloaded');
        if (i === 0 && script.refuse) throw script.refuse;
        if (script.failAt && i === script.failAt.index + 1) throw script.failAt.error;
        // The prompt is in the cache once it was evaluated; each sampled token joins it.
        if (i === 0) self.slot = [...prompt];
        else self.slot.push(...(chunks[i]!.choices[0]?.text ?? ''));
        self.chunksRead++;
        yield chunks[i]!;
      }
    }
    return stream();
  }

  async exit(): Promise<void> {
    this.calls.push('exit');
    this.exited = true;
    this.slot = [];
    this.rejectHang?.(new Error('The model was unloaded'));
  }

  private waitForGate(): Promise<void> {
    if (this.credit > 0) {
      this.credit--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.gate.push(resolve));
  }

  private chunksOf(script: FakeCompletionScript, promptLength: number, reused: number, nProbs: number): WllamaCompletionChunk[] {
    const finish = script.finish ?? 'stop';
    const promptTokens = script.promptTokens ?? promptLength;
    const cachedTokens = script.cachedTokens ?? reused;
    const tokens = finish === 'stop' ? [...script.tokens, ''] : script.tokens;
    const chunks: WllamaCompletionChunk[] = [
      { choices: [{ text: '', finish_reason: null }], prompt_progress: { total: promptTokens, cache: cachedTokens, processed: cachedTokens, time_ms: 0 } },
    ];
    const entry = (token: string, logprob: number) => ({ token, logprob, bytes: [...new TextEncoder().encode(token)] });
    tokens.forEach((text, i) => {
      const lp = fakeLogprob(i);
      const top = [entry(text, lp), ...Array.from({ length: nProbs - 1 }, (_, k) => entry(`alt ${k + 1}`, lp - (k + 1)))];
      const logprobs = nProbs > 0 ? { content: [{ ...entry(text, lp), top_logprobs: top }] } : null;
      chunks.push({ choices: [{ text, finish_reason: null, logprobs }] });
    });
    chunks.push({
      choices: [{ text: '', finish_reason: finish, logprobs: null }],
      usage: { prompt_tokens: promptTokens, completion_tokens: tokens.length, prompt_tokens_details: { cached_tokens: cachedTokens } },
      timings: { prompt_n: promptTokens - cachedTokens, prompt_ms: 12.4, prompt_per_second: 500, predicted_per_second: 40 },
    });
    return chunks;
  }
}
