/**
 * One wllama streaming completion as a `Generation` (chunk semantics: `wllama-like.ts`).
 *
 * - Priming: the completion starts when `generate()` is called (the server awaits `usage`
 *   before it iterates). It asks for `return_progress`, so the first chunk — sent once
 *   llama.cpp has tokenized the prompt and checked it against the context — says how many
 *   prompt tokens there are and how many its KV cache reuses: `usage` is exact from the start.
 *   A prompt too long for the context fails there, and `usage` rejects.
 * - Deltas: one per token chunk; a chunk with no text (a held-back stop string or UTF-8
 *   character) passes its token on to the next delta. At the end, `usage.completion_tokens`
 *   (EOS included) settles the count in a last delta, text `''` if need be.
 * - Logprobs (`topLogprobs` set; the engine asked llama.cpp for `n_probs`): each token
 *   chunk carries its token's entry; entries wait with their token and go out on the delta
 *   that releases their text, so a delta's entries spell its text. Entries still waiting at
 *   the end belong to text that is never output (the EOS token, a stop string held back and
 *   dropped): they are dropped with it.
 * - Abort: the iterator returns as soon as `signal` aborts (or the consumer stops reading);
 *   wllama's request is aborted and its stream read to the end in the background (it throws
 *   after at most one more token), which frees llama.cpp's slot; `ended` then resolves.
 */
import type { ApiError } from '../../shared/api-error';
import type { EngineDelta, EngineUsage, FinishReason, Generation, SampledLogprob } from '../../ports/engine';
import type { WllamaCompletionChunk } from './wllama-like';
import { abortReason } from '../../shared/abort';

export interface WllamaGenerationHooks {
  /** Loads the model if needed and starts the completion, aborted through `abortSignal`. */
  start(abortSignal: AbortSignal): Promise<AsyncIterable<WllamaCompletionChunk>>;
  /** Turns any failure into the ApiError the caller sees. */
  mapError(err: unknown): ApiError;
  /** The completion failed (not by abort): the engine may be unwell. */
  onFailure(err: unknown): void;
  /** wllama's stream is over (finished, failed or drained after an abort). */
  onEnd(): void;
}

const ABORTED = Symbol('aborted');

function noop(): void {}

export class WllamaGeneration implements Generation {
  readonly usage: Promise<EngineUsage>;
  readonly finalUsage: Promise<EngineUsage>;
  /** Resolves once wllama's stream is over and its slot is free. */
  readonly ended: Promise<void>;

  private finish: FinishReason = 'stop';
  private readonly controller = new AbortController();
  private iterator: AsyncIterator<WllamaCompletionChunk> | null = null;
  /** Chunks read while priming, not yet turned into deltas. */
  private readonly buffered: WllamaCompletionChunk[] = [];
  private readonly primed: Promise<void>;
  private early: EngineUsage | null = null;
  private last: WllamaCompletionChunk | null = null;
  private pendingTokens = 0;
  /** With `topLogprobs`: the entries of the tokens whose text is not released yet. */
  private pendingLogprobs: SampledLogprob[] = [];
  private yieldedTokens = 0;
  private iterated = false;
  /** Someone is iterating right now. */
  private consuming = false;
  /** No more chunks will be read (end of stream, failure, or a background drain started). */
  private streamOver = false;
  private isEnded = false;
  private resolveUsage!: (usage: EngineUsage) => void;
  private rejectUsage!: (err: unknown) => void;
  private resolveFinal!: (usage: EngineUsage) => void;
  private rejectFinal!: (err: unknown) => void;
  private markEnded!: () => void;

  constructor(
    private readonly signal: AbortSignal,
    private readonly hooks: WllamaGenerationHooks,
    /** Alternatives per token to report (`GenerateRequest.topLogprobs`); undefined: no logprobs. */
    private readonly topLogprobs?: number,
  ) {
    this.usage = new Promise((resolve, reject) => {
      this.resolveUsage = resolve;
      this.rejectUsage = reject;
    });
    this.finalUsage = new Promise((resolve, reject) => {
      this.resolveFinal = resolve;
      this.rejectFinal = reject;
    });
    this.ended = new Promise((resolve) => (this.markEnded = resolve));
    // Observed by the server; never an unhandled rejection here.
    this.usage.catch(noop);
    this.finalUsage.catch(noop);
    // Started on the next microtask: the caller gets the generation before `start` runs.
    this.primed = Promise.resolve().then(() => this.prime());
    this.primed.catch(noop);
  }

  finishReason(): FinishReason {
    return this.finish;
  }

  /**
   * Stops a generation nobody is reading (its consumer gave up before iterating); with
   * `waitForConsumer`, also waits for one that is being read to end.
   */
  async abandon(options: { waitForConsumer: boolean }): Promise<void> {
    if (!this.consuming) {
      await this.primed.catch(noop);
      if (!this.consuming) this.stop();
    }
    if (!this.consuming || options.waitForConsumer) await this.ended;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<EngineDelta> {
    if (this.iterated) throw new Error('wllama-generation: a generation can be iterated once');
    this.iterated = true;
    this.consuming = true;
    let complete = false;
    try {
      try {
        await this.primed;
      } catch (err) {
        if (this.signal.aborted) {
          this.finish = 'abort';
          return;
        }
        throw err;
      }
      for (;;) {
        const chunk = this.buffered.shift() ?? (await this.read());
        if (chunk === ABORTED) {
          this.finish = 'abort';
          return;
        }
        if (chunk === null) break;
        const delta = this.accept(chunk);
        if (delta) yield delta;
      }
      complete = true;
      const tail = this.tail();
      if (tail) yield tail;
    } finally {
      if (!complete) this.stop();
      this.consuming = false;
    }
  }

  private async prime(): Promise<void> {
    try {
      if (this.signal.aborted) throw abortReason(this.signal);
      const stream = await this.hooks.start(this.controller.signal);
      this.iterator = stream[Symbol.asyncIterator]();
      // Read until the prompt is known to be accepted: its progress report, or a first token.
      for (;;) {
        const result = await this.next();
        if (result === ABORTED) throw abortReason(this.signal);
        if (result.done) {
          this.streamIsOver();
          break;
        }
        this.buffered.push(result.value);
        const progress = result.value.prompt_progress;
        if (progress) {
          this.early = { inputTokens: progress.total, cachedTokens: progress.cache };
          break;
        }
        if (result.value.choices.length > 0) break;
      }
      this.early ??= this.usageOf(null);
      this.resolveUsage(this.early);
    } catch (err) {
      const aborted = this.signal.aborted;
      const failure = aborted ? abortReason(this.signal) : this.hooks.mapError(err);
      if (aborted) {
        this.finish = 'abort';
        this.stop();
      } else {
        this.hooks.onFailure(err);
      }
      this.rejectUsage(failure);
      this.rejectFinal(failure);
      this.streamIsOver();
      throw failure;
    }
  }

  /** wllama's next chunk, or ABORTED as soon as the signal fires (the pending read then settles unobserved). */
  private async next(): Promise<IteratorResult<WllamaCompletionChunk> | typeof ABORTED> {
    const iterator = this.iterator;
    if (!iterator || this.streamOver) return { done: true, value: undefined };
    if (this.signal.aborted) return ABORTED;
    let onAbort = noop;
    const aborted = new Promise<typeof ABORTED>((resolve) => {
      onAbort = () => resolve(ABORTED);
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([iterator.next(), aborted]);
    } finally {
      this.signal.removeEventListener('abort', onAbort);
    }
  }

  /** The next chunk, `null` at the end of the stream, or ABORTED. */
  private async read(): Promise<WllamaCompletionChunk | null | typeof ABORTED> {
    try {
      const result = await this.next();
      if (result === ABORTED) return ABORTED;
      if (result.done) {
        this.streamIsOver();
        return null;
      }
      return result.value;
    } catch (err) {
      if (this.signal.aborted) return ABORTED;
      this.hooks.onFailure(err);
      const failure = this.hooks.mapError(err);
      this.rejectFinal(failure);
      this.streamIsOver();
      throw failure;
    }
  }

  /** One chunk: the delta it releases, if any, with the tokens behind it. */
  private accept(chunk: WllamaCompletionChunk): EngineDelta | null {
    if (chunk.prompt_progress) return null;
    const choice = chunk.choices[0];
    if (!choice) return null;
    this.keepLogprobs(choice);
    if (choice.finish_reason !== null) {
      this.last = chunk;
      this.finish = choice.finish_reason === 'length' ? 'length' : 'stop';
      return choice.text ? this.emit(choice.text, this.pendingTokens) : null;
    }
    this.pendingTokens += 1;
    return choice.text ? this.emit(choice.text, this.pendingTokens) : null;
  }

  private keepLogprobs(choice: WllamaCompletionChunk['choices'][number]): void {
    const top = this.topLogprobs;
    if (top === undefined) return;
    for (const entry of choice.logprobs?.content ?? []) {
      this.pendingLogprobs.push({
        token: entry.token,
        logprob: entry.logprob,
        bytes: entry.bytes ?? [],
        top_logprobs: entry.top_logprobs.slice(0, top).map((t) => ({ token: t.token, logprob: t.logprob, bytes: t.bytes ?? [] })),
      });
    }
  }

  private emit(text: string, tokens: number): EngineDelta {
    this.yieldedTokens += tokens;
    this.pendingTokens = Math.max(0, this.pendingTokens - tokens);
    if (this.topLogprobs === undefined) return { text, tokens };
    // A delta without text releases no token text: what waits stays for later text, or is dropped.
    if (text === '') return { text, tokens, logprobs: [] };
    const logprobs = this.pendingLogprobs;
    this.pendingLogprobs = [];
    return { text, tokens, logprobs };
  }

  /** After the last chunk: tokens not yet counted (the EOS token, held-back chunks). */
  private tail(): EngineDelta | null {
    const counted = this.last?.usage?.completion_tokens;
    const extra = counted !== undefined ? Math.max(0, counted - this.yieldedTokens) : this.pendingTokens;
    this.resolveFinal(this.usageOf(this.last));
    return extra > 0 ? this.emit('', extra) : null;
  }

  private usageOf(chunk: WllamaCompletionChunk | null): EngineUsage {
    const usage = chunk?.usage;
    const timings = chunk?.timings;
    const inputTokens = usage?.prompt_tokens ?? this.early?.inputTokens ?? 0;
    const cachedTokens = usage?.prompt_tokens_details?.cached_tokens ?? this.early?.cachedTokens ?? 0;
    return {
      inputTokens,
      cachedTokens,
      ...(timings
        ? {
            timings: {
              prefillTokens: timings.prompt_n,
              timeToFirstTokenMs: Math.round(timings.prompt_ms),
              prefillTokensPerSecond: timings.prompt_per_second,
              decodeTokensPerSecond: timings.predicted_per_second,
            },
          }
        : {}),
    };
  }

  /** Aborts wllama's request and reads its stream to the end in the background. */
  private stop(): void {
    if (this.streamOver) return;
    if (this.last === null) this.finish = 'abort';
    this.controller.abort();
    const iterator = this.iterator;
    this.streamOver = true;
    if (!iterator) {
      // Not started yet: prime() sees the abort and never reads.
      this.end();
      return;
    }
    void (async () => {
      try {
        for (;;) {
          const result = await iterator.next();
          if (result.done) break;
          this.last = result.value.choices[0]?.finish_reason ? result.value : this.last;
        }
      } catch {
        // wllama's AbortError, or a failure of a request nobody waits for any more.
      }
      this.resolveFinal(this.usageOf(this.last));
      this.end();
    })();
  }

  private streamIsOver(): void {
    if (this.streamOver) return;
    this.streamOver = true;
    this.end();
  }

  private end(): void {
    if (this.isEnded) return;
    this.isEnded = true;
    this.markEnded();
    this.hooks.onEnd();
  }
}
