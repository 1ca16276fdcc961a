/**
 * A test stand-in for web-llm's `MLCEngine` at the API boundary the adapter uses
 * (`MLCEngineLike`). It reproduces what web-llm 0.2.86 does there (see
 * `src/engine/webllm/generation.ts` for the stream shape): a per-model lock, the interrupt flag
 * reset at the start of a generation and checked before each decode step, stop strings
 * cut from the text, the stop token's empty chunk, the final and usage chunks,
 * `reload()` resolving quietly when `unload()` aborts it, and its KV-cache reuse decision
 * (`preparePrefillInput`: `messages[:-1]` equal, string for string, to the conversation it
 * holds — the previous request's messages and its own reply — after a reply that ended
 * with `stop`), recorded in `kvReused`.
 */
import type { ChatCompletionChunk, ChatCompletionRequestStreaming, InitProgressReport, MLCEngineConfig } from '@mlc-ai/web-llm';
import type { MLCEngineLike } from '../../src/engine/webllm/mlc-engine-like';

export interface FakeReply {
  /** Text of each sampled token, before the stop token. */
  tokens: string[];
  /** `usage.prompt_tokens` (tokens prefilled this turn). */
  promptTokens?: number;
  /** Milliseconds of prefill and of each decode step. */
  prefillMs?: number;
  tokenMs?: number;
  /** Thrown by prefill (the first `next()`). */
  prefillError?: Error;
  /** Thrown by the decode step producing token `index`. */
  failAt?: { index: number; error: Error };
  /** Seconds reported as `time_to_first_token_s`. */
  ttft?: number;
}

export interface FakeReload {
  /** Reports web-llm would send while loading. */
  reports?: InitProgressReport[];
  error?: Error;
  /** Holds the reload until resolved (or until `unload()` aborts it). */
  gate?: Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class FakeMLCEngine implements MLCEngineLike {
  /** `reload:<id>`, `unload`, `interrupt`, `create` in call order. */
  readonly calls: string[] = [];
  readonly requests: ChatCompletionRequestStreaming[] = [];
  /** What `createEngine` was given (set by the test's factory). */
  config: MLCEngineConfig = {};
  /** `completion_tokens` of the last generation: sampled tokens, stop token included. */
  lastCompletionTokens = 0;
  replies: FakeReply[] = [];
  reloads: FakeReload[] = [];
  loadedModel: string | null = null;
  /** Per generation: whether web-llm would have kept its KV cache (prefilled only the last message). */
  readonly kvReused: boolean[] = [];
  /** The conversation web-llm holds after a reply that ended with `stop` (null otherwise). */
  held: Array<{ role: string; content: string }> | null = null;

  private interruptSignal = false;
  private message = '';
  private lock: Promise<void> = Promise.resolve();
  private abortReload: (() => void) | null = null;

  readonly chat = {
    completions: {
      create: async (request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> => {
        this.calls.push('create');
        this.requests.push(request);
        if (!this.loadedModel) throw Object.assign(new Error('Model not loaded before trying to complete ChatCompletionRequest.'), { name: 'ModelNotLoadedError' });
        const reply = this.replies.shift() ?? { tokens: ['ok'] };
        return { [Symbol.asyncIterator]: () => this.run(request, reply) };
      },
    },
  };

  async reload(modelId: string | string[]): Promise<void> {
    const id = Array.isArray(modelId) ? modelId.join(',') : modelId;
    this.calls.push(`reload:${id}`);
    await this.unloadQuietly();
    const plan = this.reloads.shift() ?? {};
    let aborted = false;
    const abort = new Promise<void>((resolve) => {
      this.abortReload = () => {
        aborted = true;
        resolve();
      };
    });
    for (const report of plan.reports ?? []) this.config.initProgressCallback?.(report);
    if (plan.gate) await Promise.race([plan.gate, abort]);
    this.abortReload = null;
    if (aborted) return; // web-llm logs "Reload() is aborted." and resolves
    if (plan.error) throw plan.error;
    this.loadedModel = id;
    this.config.initProgressCallback?.({ progress: 1, timeElapsed: 1, text: 'Finish loading on WebGPU - fake' });
  }

  async unload(): Promise<void> {
    this.calls.push('unload');
    await this.unloadQuietly();
  }

  interruptGenerate(): void {
    this.calls.push('interrupt');
    this.interruptSignal = true;
  }

  async getMessage(): Promise<string> {
    return this.message;
  }

  private async unloadQuietly(): Promise<void> {
    this.loadedModel = null;
    this.held = null;
    this.abortReload?.();
  }

  private async *run(request: ChatCompletionRequestStreaming, reply: FakeReply): AsyncGenerator<ChatCompletionChunk> {
    let release!: () => void;
    const previous = this.lock;
    this.lock = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      this.interruptSignal = false;
      const plain = request.messages.map((m) => ({ role: m.role, content: typeof m.content === 'string' ? m.content : '' }));
      const history = plain.slice(0, -1);
      const held = this.held;
      this.kvReused.push(
        held !== null && held.length === history.length && held.every((m, i) => m.role === history[i]!.role && m.content === history[i]!.content),
      );
      this.held = null;
      if (reply.prefillMs) await sleep(reply.prefillMs);
      if (reply.prefillError) throw reply.prefillError;
      // As web-llm: with `logprobs` and `top_logprobs` > 0, each chunk carries its sampled
      // token's entry (token i: logprob -(i + 1)/4, alternatives `alt k` below it); the stop
      // token's too (as `<|im_end|>`), on its empty chunk.
      const withLogprobs = request.logprobs === true && (request.top_logprobs ?? 0) > 0;
      const bytes = (s: string) => [...new TextEncoder().encode(s)];
      const logprobOf = (token: string, i: number) => {
        const logprob = -(i + 1) / 4;
        const top = Array.from({ length: request.top_logprobs ?? 0 }, (_, k) => (k === 0 ? token : `alt ${k}`)).map((t, k) => ({ token: t, logprob: logprob - k, bytes: bytes(t) }));
        return { token, logprob, bytes: bytes(token), top_logprobs: top };
      };
      const chunk = (content: string, token?: string, i = 0): ChatCompletionChunk => ({
        id: 'c',
        object: 'chat.completion.chunk',
        created: 0,
        model: String(request.model),
        choices: [
          {
            index: 0,
            delta: { role: 'assistant', content },
            finish_reason: null,
            ...(withLogprobs && token !== undefined ? { logprobs: { content: [logprobOf(token, i)] } } : {}),
          },
        ],
      });
      const stops = [...(request.stop ? (Array.isArray(request.stop) ? request.stop : [request.stop]) : [])];
      const maxTokens = request.max_tokens ?? Infinity;
      const sampled = [...reply.tokens, null]; // null: the stop token
      // web-llm adds the empty think block to the reply's tokens for enable_thinking: false.
      let out = request.extra_body?.enable_thinking === false ? '<think>\n\n</think>\n\n' : '';
      let previousLength = 0;
      let completion = 0;
      let finish: 'stop' | 'length' | 'abort' | null = null;
      for (let i = 0; i < sampled.length; i++) {
        if (i > 0) {
          if (this.interruptSignal) {
            finish = 'abort';
            break;
          }
          if (reply.tokenMs) await sleep(reply.tokenMs);
          if (reply.failAt?.index === i) throw reply.failAt.error;
        }
        completion++;
        this.lastCompletionTokens = completion;
        const token = sampled[i];
        if (token === null || token === undefined) finish = 'stop';
        else {
          out += token;
          for (const stop of stops) {
            const at = out.lastIndexOf(stop);
            if (at !== -1) {
              out = out.slice(0, at);
              finish = 'stop';
              break;
            }
          }
          if (!finish && completion >= maxTokens) finish = 'length';
        }
        const delta = out.slice(previousLength);
        previousLength = out.length;
        this.message = out;
        yield chunk(delta, token ?? '<|im_end|>', i);
        if (finish) break;
      }
      this.message = out;
      this.lastCompletionTokens = completion;
      if ((finish ?? 'stop') === 'stop') this.held = [...plain, { role: 'assistant', content: out }];
      yield {
        id: 'c',
        object: 'chat.completion.chunk',
        created: 0,
        model: String(request.model),
        choices: [{ index: 0, delta: {}, finish_reason: finish ?? 'stop' }],
      };
      if (request.stream_options?.include_usage) {
        const prompt = reply.promptTokens ?? 10;
        yield {
          id: 'c',
          object: 'chat.completion.chunk',
          created: 0,
          model: String(request.model),
          choices: [],
          usage: {
            prompt_tokens: prompt,
            completion_tokens: completion,
            total_tokens: prompt + completion,
            extra: {
              e2e_latency_s: 0.1,
              prefill_tokens_per_s: 1000,
              decode_tokens_per_s: 50,
              time_to_first_token_s: reply.ttft ?? 0.05,
              time_per_output_token_s: 0.02,
            },
          },
        };
      }
    } finally {
      release();
    }
  }
}
