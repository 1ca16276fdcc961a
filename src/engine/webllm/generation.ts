/**
 * One web-llm streaming chat completion as a `Generation`.
 *
 * What web-llm 0.2.86 streams (`MLCEngine.asyncGenerate` / `streamCurrentGeneration`):
 * - the first chunk arrives once prefill is done and carries the first sampled token;
 * - then one chunk per decoded token, `delta.content` being the text it added. A token
 *   that ends inside a UTF-8 character yields no chunk (its text comes with the next), and
 *   the stop token yields a chunk with empty content: so chunks ≈ sampled tokens, and the
 *   exact count (`usage.completion_tokens`, stop token included) settles the difference
 *   in the last delta;
 * - a chunk with `finish_reason` (`stop` | `length` | `abort`) and an empty delta;
 * - with `stream_options.include_usage`, a last chunk with `choices: []` and `usage`
 *   (`prompt_tokens` = tokens prefilled this turn, `completion_tokens`, and
 *   `extra.time_to_first_token_s` = prefill time, `decode_tokens_per_s`, …).
 *
 * Abort: `interruptGenerate()` sets a flag web-llm checks before each decode step, so the
 * stream ends within one token with `finish_reason: 'abort'` (then its usage chunk). The
 * iterator returns as soon as the signal fires; the rest of web-llm's stream is drained in
 * the background so its per-model lock is released and `finalUsage` gets exact numbers.
 *
 * Thinking off: web-llm implements `enable_thinking: false` by appending the empty think
 * block `<think>\n\n</think>\n\n` to the prompt *and* to the reply's token list, so its
 * stream starts with that block although the model never generated it. The adapter drops
 * it (`dropPrefix`): it belongs to the prompt, as in Qwen3's own template.
 *
 * Stop sequences: web-llm cuts the text at a stop string once it is complete, but has
 * already streamed the part of it that came in earlier tokens. A tail of text that could
 * be the start of a stop string is held back until it is not; at the end, web-llm's final
 * text (`getMessage()`) decides whether the held text was real output.
 *
 * Logprobs (`topLogprobs` set; the request asked web-llm for `logprobs` and at least one
 * alternative, below which it computes none): each chunk carries its token's entry in
 * `choices[0].logprobs.content`. A token's entry goes out with the first text released after
 * it came (a token partly held back as a possible stop string goes with the part released),
 * and is dropped with the dropped think block and for the stop token's empty chunk. A token that ends inside a UTF-8
 * character yields no chunk, so web-llm reports no logprob for it.
 */
import type { ChatCompletionChunk, CompletionUsage, MLCEngineInterface } from '@mlc-ai/web-llm';
import type { ApiError } from '../../shared/api-error';
import type { EngineDelta, EngineUsage, FinishReason, Generation, SampledLogprob } from '../../ports/engine';

export type StreamEngine = Pick<MLCEngineInterface, 'interruptGenerate' | 'getMessage'>;

/** A stream that has passed prefill: the prompt was accepted. */
export interface PrimedStream {
  engine: StreamEngine;
  iterator: AsyncIterator<ChatCompletionChunk>;
  first: IteratorResult<ChatCompletionChunk>;
  /** Prompt tokens the engine is expected to reuse from its KV cache. */
  cachedTokens: number;
  /** Prompt tokens as estimated before generation (the exact count comes at the end). */
  estimatedInputTokens: number;
}

export interface GenerationEnd {
  finish: FinishReason;
  /** What web-llm said, when its final chunk arrived. */
  engineFinish: string | null;
  usage: CompletionUsage | null;
  /** The whole raw output as web-llm keeps it in its conversation (`getMessage()`), after a normal end. */
  text: string | null;
}

export interface GenerationHooks {
  /** Turns any failure into the ApiError the caller sees. */
  mapError(err: unknown): ApiError;
  /** The stream failed after the prompt was accepted, or the prompt failed (engine may be unwell). */
  onFailure(err: unknown): void;
  /** The stream ended (normally or by abort, after draining). */
  onEnd(end: GenerationEnd): void;
}

const ABORTED = Symbol('aborted');

/** Length of the longest suffix of `text` that is a proper prefix of one of `stops`. */
export function heldBackLength(text: string, stops: readonly string[]): number {
  let best = 0;
  for (const stop of stops) {
    for (let n = Math.min(stop.length - 1, text.length); n > best; n--) {
      if (text.endsWith(stop.slice(0, n))) {
        best = n;
        break;
      }
    }
  }
  return best;
}

function noop(): void {}

export class WebLlmGeneration implements Generation {
  readonly usage: Promise<EngineUsage>;
  readonly finalUsage: Promise<EngineUsage>;
  /** Settles once web-llm's stream is over (consumed, drained or failed). */
  readonly ended: Promise<void>;

  private readonly primed: Promise<PrimedStream>;
  private readonly signal: AbortSignal;
  private readonly stops: string[];
  private readonly hooks: GenerationHooks;
  private readonly aborted: Promise<typeof ABORTED>;
  private resolveFinal!: (usage: EngineUsage) => void;
  private rejectFinal!: (err: unknown) => void;
  private markEnded!: () => void;

  private state: 'idle' | 'iterating' | 'done' = 'idle';
  /** web-llm's stream has not ended: an interrupt now is ours (later it would hit the next generation). */
  private live = true;
  private finish: FinishReason = 'stop';
  private engineFinish: string | null = null;
  private engineUsage: CompletionUsage | null = null;
  private pendingTokens = 0;
  private yieldedTokens = 0;
  /** Text web-llm streams (and keeps in its conversation) that is not model output. */
  private prefix: string | null;
  private prefixSeen = '';
  /** Everything web-llm has streamed that was released or dropped: a prefix of its `getMessage()`. */
  private emitted = '';
  private held = '';
  /** With `topLogprobs`: the logprobs of the tokens whose text is not released yet. */
  private readonly topLogprobs: number | undefined;
  private pendingLogprobs: SampledLogprob[] = [];

  constructor(
    primed: Promise<PrimedStream>,
    options: { signal: AbortSignal; stop?: readonly string[]; dropPrefix?: string; topLogprobs?: number },
    hooks: GenerationHooks,
  ) {
    this.signal = options.signal;
    this.topLogprobs = options.topLogprobs;
    this.prefix = options.dropPrefix ?? null;
    this.stops = (options.stop ?? []).filter((s) => s.length > 0);
    this.hooks = hooks;
    this.primed = primed.catch((err: unknown) => {
      hooks.onFailure(err);
      throw hooks.mapError(err);
    });
    this.usage = this.primed.then((p) => ({ inputTokens: p.estimatedInputTokens, cachedTokens: p.cachedTokens }));
    this.finalUsage = new Promise<EngineUsage>((resolve, reject) => {
      this.resolveFinal = resolve;
      this.rejectFinal = reject;
    });
    this.ended = new Promise<void>((resolve) => (this.markEnded = resolve));
    // Observed by the caller; never an unhandled rejection here.
    this.usage.catch(noop);
    this.finalUsage.catch(noop);
    this.primed.catch((err: unknown) => {
      this.rejectFinal(err);
      this.markEnded();
    });

    this.aborted = new Promise((resolve) => {
      if (this.signal.aborted) resolve(ABORTED);
      else this.signal.addEventListener('abort', () => resolve(ABORTED), { once: true });
    });
    // Stop web-llm even when nobody is pulling; it checks the flag before each decode step.
    void this.aborted.then(() =>
      this.primed.then((p) => {
        if (this.live) p.engine.interruptGenerate();
      }, noop),
    );
  }

  finishReason(): FinishReason {
    return this.finish;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<EngineDelta> {
    if (this.state !== 'idle') {
      this.finish = 'abort';
      return;
    }
    this.state = 'iterating';
    let p: PrimedStream;
    try {
      p = await this.primed;
    } catch (err) {
      this.state = 'done';
      throw err;
    }
    let pending: Promise<IteratorResult<ChatCompletionChunk>> | null = null;
    let over = false;
    try {
      let result = p.first;
      while (!result.done) {
        const delta = this.accept(result.value);
        if (this.signal.aborted) return;
        if (delta) yield delta;
        if (this.signal.aborted) return;
        pending = p.iterator.next();
        const next = await Promise.race([pending, this.aborted]);
        if (next === ABORTED) return;
        pending = null;
        result = next;
      }
      this.live = false;
      over = true;
      const tail = await this.tail(p);
      if (tail) yield tail;
    } catch (err) {
      this.live = false;
      over = true;
      this.state = 'done';
      this.hooks.onFailure(err);
      const mapped = this.hooks.mapError(err);
      this.rejectFinal(mapped);
      this.markEnded();
      throw mapped;
    } finally {
      if (this.state !== 'done') {
        this.state = 'done';
        if (over) this.settle(p, this.engineFinish === 'length' ? 'length' : this.engineFinish === 'abort' ? 'abort' : 'stop');
        else void this.drain(p, pending);
      }
    }
  }

  /**
   * Ends a generation nobody has started iterating, so web-llm's stream releases its lock;
   * resolves once it has. A generation being iterated is left to its consumer: with
   * `waitForConsumer` this waits until it ends, otherwise it returns at once.
   */
  async abandon(options: { waitForConsumer?: boolean } = {}): Promise<void> {
    if (this.state === 'idle') {
      this.state = 'done';
      const p = await this.primed.catch(() => null);
      if (p) await this.drain(p, null);
      return;
    }
    if (options.waitForConsumer) await this.ended;
  }

  /** Reads one chunk: returns the text it releases, with the tokens behind it. */
  private accept(chunk: ChatCompletionChunk): EngineDelta | null {
    if (chunk.usage) this.engineUsage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) return null;
    if (choice.finish_reason) {
      this.engineFinish = choice.finish_reason;
      return null;
    }
    this.pendingTokens += 1;
    const unprefixed = this.withoutPrefix(choice.delta.content ?? '');
    // An empty chunk is the stop token (or the dropped think block): not output, so no logprob.
    if (this.topLogprobs !== undefined && unprefixed !== '') {
      const top = this.topLogprobs;
      for (const entry of choice.logprobs?.content ?? [])
        this.pendingLogprobs.push({ token: entry.token, logprob: entry.logprob, bytes: entry.bytes ?? [], top_logprobs: entry.top_logprobs.slice(0, top).map((t) => ({ token: t.token, logprob: t.logprob, bytes: t.bytes ?? [] })) });
    }
    const text = this.release(unprefixed);
    if (text === '') return null;
    return this.emit(text, this.pendingTokens);
  }

  private emit(text: string, tokens: number): EngineDelta {
    this.emitted += text;
    this.yieldedTokens += tokens;
    this.pendingTokens = Math.max(0, this.pendingTokens - tokens);
    if (this.topLogprobs === undefined) return { text, tokens };
    const logprobs = this.pendingLogprobs;
    this.pendingLogprobs = [];
    return { text, tokens, logprobs };
  }

  private withoutPrefix(text: string): string {
    if (this.prefix === null) return text;
    const seen = this.prefixSeen + text;
    if (this.prefix.startsWith(seen)) {
      this.prefixSeen = seen;
      return '';
    }
    const prefix = this.prefix;
    this.prefix = null;
    this.prefixSeen = '';
    if (!seen.startsWith(prefix)) return seen;
    this.emitted += prefix;
    return seen.slice(prefix.length);
  }

  private release(text: string): string {
    if (this.stops.length === 0) return text;
    const all = this.held + text;
    const keep = heldBackLength(all, this.stops);
    this.held = all.slice(all.length - keep);
    return all.slice(0, all.length - keep);
  }

  /** After web-llm's last chunk: held-back text that was real output, and uncounted tokens. */
  private async tail(p: PrimedStream): Promise<EngineDelta | null> {
    let text = '';
    if (this.held !== '') {
      const full = await Promise.resolve(p.engine.getMessage()).catch(() => null);
      // The model stopped on its stop token: the held text stays. On a stop string web-llm cut it off.
      if (full !== null && full.startsWith(this.emitted)) text = full.slice(this.emitted.length);
      this.held = '';
    }
    const counted = this.engineUsage?.completion_tokens;
    const extra = counted !== undefined ? Math.max(0, counted - this.yieldedTokens) : this.pendingTokens;
    if (text === '' && extra === 0) return null;
    return this.emit(text, extra);
  }

  private async drain(p: PrimedStream, pending: Promise<IteratorResult<ChatCompletionChunk>> | null): Promise<void> {
    this.finish = 'abort';
    try {
      p.engine.interruptGenerate();
      let result = pending ? await pending : await p.iterator.next();
      while (!result.done) {
        if (result.value.usage) this.engineUsage = result.value.usage;
        result = await p.iterator.next();
      }
    } catch (err) {
      // The caller has moved on; a failure now only tells that the engine is unwell.
      this.hooks.onFailure(err);
    }
    this.live = false;
    this.settle(p, 'abort');
  }

  private settle(p: PrimedStream, finish: FinishReason): void {
    this.finish = finish;
    const u = this.engineUsage;
    const usage: EngineUsage = u
      ? {
          inputTokens: p.cachedTokens + u.prompt_tokens,
          cachedTokens: p.cachedTokens,
          timings: {
            prefillTokens: u.prompt_tokens,
            timeToFirstTokenMs: Math.round((u.extra?.time_to_first_token_s ?? 0) * 1000),
            prefillTokensPerSecond: u.extra?.prefill_tokens_per_s ?? 0,
            decodeTokensPerSecond: u.extra?.decode_tokens_per_s ?? 0,
          },
        }
      : { inputTokens: p.estimatedInputTokens, cachedTokens: p.cachedTokens };
    this.resolveFinal(usage);
    void this.reportEnd(p, finish).finally(() => this.markEnded());
  }

  private async reportEnd(p: PrimedStream, finish: FinishReason): Promise<void> {
    // web-llm's conversation keeps its own copy of the reply; the next turn reuses the KV
    // cache only if the history repeats it exactly.
    const text = finish === 'stop' ? await Promise.resolve(p.engine.getMessage()).catch(() => this.emitted) : null;
    this.hooks.onEnd({ finish, engineFinish: this.engineFinish, usage: this.engineUsage, text });
  }
}
