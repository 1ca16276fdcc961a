/**
 * One round on a provider: one streamed upstream request, read into deltas of parse events.
 * `usage` resolves once the upstream accepted the request (its headers came with a 2xx; the
 * prompt count is our estimate until its `usage` arrives, in `finalUsage`) and rejects with
 * what it refused. Aborting the request's signal closes the upstream connection at once and
 * ends the iteration normally (`finishReason()` is then `abort`); leaving the loop early does
 * the same. A stream that breaks off, goes silent, sends more than its byte limit, an error
 * of its own or no finish at all throws, naming the provider: the run keeps what came so far.
 */
import type { EngineDelta, EngineUsage, FinishReason, GenerateRequest, Generation } from '../../ports/engine';
import { SseDecoder, type SseMessage } from '../../protocol/sse';
import { describeError } from '../../shared/api-error';
import { estimateTokens } from '../token-estimate';
import { chatProfile, chatRequest } from './chat-request';
import { ChatStreamReader } from './chat-stream';
import { ResponsesStreamReader, responsesRequest } from './responses-wire';
import { DEFAULT_MAX_STREAM_BYTES, upstreamRequest, type Silence, type UpstreamOptions } from './upstream-http';
import { httpError, isContextOverflow, parseUpstreamError, streamFailure, type ProviderFacts } from './upstream-errors';

export interface RoundTarget {
  provider: ProviderFacts;
  api: 'chat_completions' | 'responses';
  /** The model's id on the upstream. */
  upstreamModel: string;
  options: UpstreamOptions;
}

type Reader = ChatStreamReader | ResponsesStreamReader;

export class RemoteGeneration implements Generation {
  readonly usage: Promise<EngineUsage>;
  readonly finalUsage: Promise<EngineUsage>;
  private finish: FinishReason = 'stop';
  private readonly started: Promise<{ response: Response; silence: Silence }>;
  private readonly reader: Reader;
  private readonly estimate: number;
  private settleFinal!: (usage: EngineUsage) => void;
  private failFinal!: (err: unknown) => void;

  constructor(
    private readonly target: RoundTarget,
    private readonly request: GenerateRequest,
  ) {
    const toolNames = new Set((request.conversation?.tools ?? []).map((t) => t.name));
    const chat = target.api === 'chat_completions';
    this.reader = chat ? new ChatStreamReader(toolNames, request.topLogprobs) : new ResponsesStreamReader(toolNames, request.topLogprobs);
    const body = chat ? chatRequest(request, target.upstreamModel, chatProfile(target.provider.baseUrl)) : responsesRequest(request, target.upstreamModel);
    this.started = upstreamRequest(
      target.provider,
      { method: 'POST', path: chat ? '/chat/completions' : '/responses', body, signal: request.signal, model: target.upstreamModel },
      target.options,
    );
    this.estimate = estimateTokens(request.input.prompt);
    this.usage = this.started.then(() => ({ inputTokens: this.estimate, cachedTokens: 0 }));
    this.finalUsage = new Promise<EngineUsage>((resolve, reject) => {
      this.settleFinal = resolve;
      this.failFinal = reject;
    });
    // Observed by whoever awaits them; a round that never iterates must not leave them unhandled.
    this.usage.catch((err: unknown) => this.failFinal(err));
    this.finalUsage.catch(() => undefined);
  }

  finishReason(): FinishReason {
    return this.finish;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<EngineDelta> {
    const { response, silence } = await this.started;
    const { provider } = this.target;
    const max = this.target.options.maxStreamBytes ?? DEFAULT_MAX_STREAM_BYTES;
    const reader = response.body?.getReader();
    const decoder = new SseDecoder();
    let bytes = 0;
    let done = false;
    try {
      if (!reader) throw streamFailure(provider, 'its answer had no body.');
      while (!done) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (err) {
          if (this.request.signal.aborted) return void (this.finish = 'abort');
          if (silence.controller.signal.aborted) throw silence.controller.signal.reason;
          throw streamFailure(provider, `its stream broke off mid-answer (${describeError(err)}); the output so far is kept. Send the request again.`);
        }
        silence.kick();
        if (chunk.done) break;
        // Past the limit, what came within it is still read: the output is kept up to there.
        const over = bytes + chunk.value.byteLength > max;
        const bytesIn = over ? chunk.value.subarray(0, max - bytes) : chunk.value;
        bytes += bytesIn.byteLength;
        // What one read brought goes on as few deltas as it can (a fast server sends many chunks a read).
        const deltas: EngineDelta[] = [];
        for (const message of decoder.push(bytesIn)) {
          const delta = this.message(message);
          if (delta === 'done') done = true;
          else if (delta) joinDelta(deltas, delta);
          if (done) break;
        }
        yield* deltas;
        if (over && !done) throw streamFailure(provider, `its answer is longer than ${limitText(max)}, this runtime's limit; it was cut off there.`);
      }
      if (this.request.signal.aborted) return void (this.finish = 'abort');
      if (!done) for (const message of decoder.end()) if (this.message(message) === 'done') done = true;
      const rest = this.reader instanceof ChatStreamReader ? this.reader.flush() : [];
      if (rest.length) yield { text: '', tokens: 0, events: rest };
      this.settle();
    } finally {
      silence.stop();
      if (reader && !done) void reader.cancel().catch(() => undefined);
      const usage = this.reader.end.usage;
      this.settleFinal(usage ? { ...usage } : { inputTokens: this.estimate, cachedTokens: 0 });
    }
  }

  /** How the stream ended, once it did: a known finish, or a failure naming the provider. */
  private settle(): void {
    const { provider } = this.target;
    const end = this.reader.end;
    if (this.reader instanceof ResponsesStreamReader && this.reader.failure !== null) throw streamFailure(provider, `the upstream response failed: ${this.reader.failure}`);
    if (end.unknownFinish !== undefined) throw streamFailure(provider, `its server stopped the answer (finish_reason "${end.unknownFinish.slice(0, 40)}"); the output so far is kept.`);
    if (end.finish === null) throw streamFailure(provider, 'its stream ended before the answer did (no finish reason): the connection was lost or its server failed. The output so far is kept; send the request again.');
    this.finish = end.finish;
  }

  /** One SSE message: a delta, nothing, or `done` (`[DONE]`, or the Responses stream's terminal event). */
  private message(message: SseMessage): EngineDelta | null | 'done' {
    const { provider } = this.target;
    if (message.data === '[DONE]') return 'done';
    if (message.data === '') return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(message.data);
    } catch {
      throw streamFailure(provider, 'its stream sent something that is not JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null) return null;
    const record = parsed as Record<string, unknown>;
    // An error in the stream (OpenAI, llama.cpp, vLLM, SGLang): the upstream's message, passed on.
    if ((message.event === 'error' || 'error' in record) && this.reader instanceof ChatStreamReader) {
      const error = parseUpstreamError(message.data);
      if (isContextOverflow(error, 400)) throw httpError(provider, 400, error, new Headers());
      throw streamFailure(provider, `its server failed mid-answer: ${error.message}`);
    }
    const delta = this.reader.push(record);
    if (this.reader instanceof ResponsesStreamReader && this.reader.finished) return delta ?? 'done';
    return delta;
  }
}

function limitText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

/**
 * Appends `delta` to `deltas`, into the last one when both are one piece of text (or of
 * reasoning): the text joins, tokens add up, logprobs follow in order.
 */
export function joinDelta(deltas: EngineDelta[], delta: EngineDelta): void {
  const last = deltas.at(-1);
  const a = last?.events?.length === 1 ? last.events[0]! : null;
  const b = delta.events?.length === 1 ? delta.events[0]! : null;
  if (!last || !a || !b || (a.type !== 'text' && a.type !== 'reasoning') || a.type !== b.type) {
    deltas.push(delta);
    return;
  }
  const logprobs = last.logprobs || delta.logprobs ? [...(last.logprobs ?? []), ...(delta.logprobs ?? [])] : undefined;
  deltas[deltas.length - 1] = { text: '', tokens: last.tokens + delta.tokens, events: [{ type: a.type, text: a.text + (b as { text: string }).text }], ...(logprobs ? { logprobs } : {}) };
}

