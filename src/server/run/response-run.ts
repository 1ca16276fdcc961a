/**
 * The lifecycle of one response: wait for the engine, generate, parse, emit events, and end
 * in exactly one terminal state that is persisted — never left `in_progress`.
 *
 * Stopping is one path: the run's AbortController, aborted with a StopReason (cancel,
 * delete, client disconnect, shutdown). Cancel → `cancelled`; disconnect → `incomplete`;
 * shutdown → `failed` (interrupted); delete → nothing more is written.
 *
 * Steering (a WebSocket `response.steer`, server/socket/steering.ts) is not a stop: it ends
 * the model's generation at the next token, lets builtin calls under way finish, and the run
 * ends `incomplete` with reason `steered`, its output so far kept — unless the model's output
 * already waits for the client (a function call, an approval), which then stands.
 */
import type { ConversationItem } from '../../chat/chat-format';
import type { Engine } from '../../ports/engine';
import type { ResponseErrorInfo, ResponseObject, ResponseStatus, Usage } from '../../protocol/response-object';
import { terminalEventType, UNLOGGED_EVENTS_MAX, type StreamEvent, type UnsequencedEvent } from '../../protocol/stream-events';
import type { ResponseStore } from '../../ports/response-store';
import type { StoredItem } from '../../protocol/output-items';
import { describeError, toApiErrorData } from '../../shared/api-error';
import type { QueuePlace } from '../state/engine-queue';
import type { RunningResponse } from '../state/running-response';
import { LiveLog } from './live-log';
import { OutputBuilder } from './output-builder';
import { modelRound, type RoundContext } from './model-round';
import { toConversation } from '../model-view/to-conversation';
import type { CallContext, ToolCall } from '../../ports/builtin-tool';
import type { ToolRegistry } from '../state/tool-registry';
import type { RunPlan } from '../request/run-plan';
import { Codes } from '../../shared/error-codes';
import { stopReasonOf, Stopped, type StopReason } from '../../shared/abort';
import { CitationMarkers } from './citation-markers';

export type { StopReason };

/** What a run works with besides its plan: the engine and its place in line, storage, tools, the clock. */
export interface RunPorts {
  engine: Engine;
  /** This response's place in its engine's line, taken when its status was decided. */
  place: QueuePlace;
  store: ResponseStore;
  /** The builtin tools (how their items read to the model in the next round). */
  tools: ToolRegistry;
  /** Unix seconds. */
  now: () => number;
  /** How often buffered events are flushed to storage while generating. */
  flushMs: number;
  /**
   * Keep the event log once the response has finished, though it is not a background one
   * (a WebSocket turn: resumable over HTTP). A background response's log is always kept.
   */
  keepLog?: boolean;
}

export class ResponseRun implements RunningResponse {
  readonly log = new LiveLog();
  readonly done: Promise<ResponseObject>;
  private readonly controller = new AbortController();
  /** Aborted by {@link steer}: the model stops at its next token, the run at its next boundary. */
  private readonly steering = new AbortController();
  private readonly roundSignal = AbortSignal.any([this.controller.signal, this.steering.signal]);
  private builder: OutputBuilder;
  /** Builtin calls the model wrote in the current round, run when the round ends. */
  private pending: ToolCall[] = [];
  /** The conversation of the round being generated, and the output tokens so far: what a call's `contextLeft` measures. */
  private current: { conversation: readonly ConversationItem[]; outputTokens: number } = { conversation: [], outputTokens: 0 };
  private response: ResponseObject;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private flushing: Promise<void> = Promise.resolve();

  /** Where the response is persisted; null when the request asked not to store it. */
  private readonly store: ResponseStore | null;

  constructor(
    initial: ResponseObject,
    /** Replaced once the tools' `prepare` ran (what they listed joins the plan). */
    private plan: RunPlan,
    private readonly ports: RunPorts,
  ) {
    this.response = initial;
    this.store = plan.persist ? ports.store : null;
    // A logged stream never runs further ahead of its stored log than a takeover can recover.
    if (this.store && plan.logEvents) this.log.holdReadersTo(UNLOGGED_EVENTS_MAX);
    this.builder = new OutputBuilder((e) => this.emit(e), {
      builtinNames: { has: (name) => this.plan.builtinNames.has(name) },
      onBuiltinCall: (name, args) => this.onBuiltinCall(name, args),
      annotate: (text) => this.plan.sessions.annotate(text),
      citationMarkers: () => {
        const sources = this.plan.sessions.sources();
        return sources ? new CitationMarkers((n) => sources.get(n)) : null;
      },
      waits: (item) => this.ports.tools.waits(item),
      ...(plan.reasoningSummary ? { summary: plan.reasoningSummary } : {}),
      logprobs: plan.generation.topLogprobs !== undefined,
      clientTools: plan.clientTools,
    });
    this.done = this.execute();
  }

  get id(): string {
    return this.response.id;
  }

  /** Its events after sequence number `after` (-1: all), live until the run ends. */
  follow(after: number, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    return this.log.follow(after, signal);
  }

  /** What a model round works with (the plan may change before the first round: MCP tools). */
  private get roundContext(): RoundContext {
    return { plan: this.plan, engine: this.ports.engine, builder: this.builder, signal: this.roundSignal, pendingCalls: () => this.pending.length };
  }

  /** What a builtin call works with: where its item lives, the run's signal, the context left. */
  private readonly callContext: CallContext = {
    items: {
      begin: (item) => this.builder.beginBuiltinCall(item),
      update: (index, item) => this.builder.updateBuiltinCall(index, item),
      complete: (index, item) => this.builder.completeBuiltinCall(index, item),
      emit: (event) => this.builder.emit(event),
    },
    signal: this.controller.signal,
    contextLeft: () => this.contextLeft(),
  };

  /** The model wrote a call of a tool the runtime runs: its tool begins the item (or asks for approval). */
  private onBuiltinCall(name: string, args: string): void {
    const call = this.plan.sessions.begin(name, args, this.callContext);
    if (call) this.pending.push(call);
  }

  /** The conversation this run will append to, if any. */
  get conversationId(): string | null {
    return this.response.conversation?.id ?? null;
  }

  /** The response as it stands, partial output included. */
  snapshot(): ResponseObject {
    const output = this.builder.snapshot();
    return { ...this.response, output, output_text: textOf(output) };
  }

  /** Ends the run at the next token boundary as `incomplete` (`steered`); see the top of this file. */
  steer(): void {
    if (!this.steering.signal.aborted) this.steering.abort();
  }

  /** What a steered run ends as, unless its output already waits for the client. */
  private steered(usage: Usage): Outcome | null {
    if (!this.steering.signal.aborted || this.builder.functionCallCount > 0 || this.builder.waitingCount > 0) return null;
    return { status: 'incomplete', reason: 'steered', usage };
  }

  stop(reason: StopReason): void {
    if (!this.controller.signal.aborted) this.controller.abort(new Stopped(reason));
  }

  private get stopReason(): StopReason | null {
    return stopReasonOf(this.controller.signal);
  }

  private emit(event: UnsequencedEvent): StreamEvent {
    const sequenced = this.log.append(event);
    if (!this.plan.logEvents || !this.store) return sequenced;
    // Half the readers' allowance used: write now rather than hold them until the timer.
    if (this.log.unsavedCount >= UNLOGGED_EVENTS_MAX / 2) void this.flush();
    else if (this.flushTimer === null) this.flushTimer = setTimeout(() => this.flush(), this.ports.flushMs);
    return sequenced;
  }

  private emitLifecycle(type: 'response.created' | 'response.queued' | 'response.in_progress'): void {
    this.emit({ type, response: this.snapshot() });
  }

  /** Appends buffered events in one transaction; serialized so the log is written in order. */
  private flush(): Promise<void> {
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const store = this.store;
    if (!store || !this.plan.logEvents) return this.flushing;
    const events = this.log.takeUnsaved();
    const last = events.at(-1)?.sequence_number;
    if (last !== undefined)
      this.flushing = this.flushing
        .then(() => store.appendEvents(this.id, events))
        .catch((err: unknown) => reportPersistFailure(this.id, err))
        // Taken or given up on: readers go on either way (a stream must never stall on storage).
        .finally(() => this.log.stored(last));
    return this.flushing;
  }

  private async execute(): Promise<ResponseObject> {
    const signal = this.controller.signal;
    this.emitLifecycle('response.created');
    if (this.response.status === 'queued') this.emitLifecycle('response.queued');

    let release: (() => void) | null = null;
    try {
      release = await this.ports.place.take(signal);
    } catch {
      return this.finish(this.stopped());
    }
    try {
      if (this.response.status === 'queued') {
        this.response = { ...this.response, status: 'in_progress' };
        await this.store?.save(this.response, []).catch((err: unknown) => reportPersistFailure(this.id, err));
      }
      this.emitLifecycle('response.in_progress');
      await this.ports.engine.ensureLoaded?.(this.plan.model, signal);
      if (signal.aborted) return await this.finish(this.stopped());
      return await this.finish(await this.generate());
    } catch (err) {
      if (signal.aborted) return this.finish(this.stopped());
      const data = toApiErrorData(err);
      // A rate limit keeps OpenAI's code for it (an upstream's 429); every other failure is a server_error.
      const code = data.code === Codes.rateLimitExceeded ? Codes.rateLimitExceeded : Codes.serverError;
      return this.finish({ status: 'failed', error: { code, type: data.type, param: data.param, message: data.message } });
    } finally {
      release();
    }
  }

  private stopped(): Outcome {
    switch (this.stopReason) {
      case 'cancel':
        return { status: 'cancelled', stopped: true };
      case 'disconnect':
        return { status: 'incomplete', stopped: true };
      case 'delete':
        return { status: 'cancelled', deleted: true, stopped: true };
      case 'deadline':
        return { status: 'failed', error: { code: Codes.serverError, type: 'server_error', param: null, message: new Stopped('deadline').message }, stopped: true };
      default:
        return { status: 'failed', error: { code: Codes.serverError, type: 'server_error', param: null, message: INTERRUPTED }, stopped: true };
    }
  }

  /**
   * The turn loop: generate; when the model called builtin tools, run them, show it the
   * results and generate again — until it answers without builtin calls, calls a client
   * function, or runs out of rounds / tokens.
   */
  private async generate(): Promise<Outcome> {
    // A compaction made for this response comes first in its output, as on OpenAI (it was written before the run).
    const compaction = this.plan.compaction;
    if (compaction) this.builder.addFinished(compaction.item);
    // A compaction_trigger asked for the compaction alone: nothing is generated after it.
    if (compaction?.only) return { status: 'completed', usage: usageOf({ input: compaction.usage.inputTokens, cached: 0, output: compaction.usage.outputTokens, reasoning: 0 }) };
    // Before the first round, the work the request itself asks of its tools (listing a server, approved calls).
    const toolsBefore = functionNames(this.plan);
    const prepared = await this.plan.sessions.prepare(this.callContext);
    // Functions a tool found (a server's tools) are told to the model from the first round on.
    if (functionNames(this.plan) !== toolsBefore) this.plan = this.plan.withCurrentTools();
    const { plan } = this;
    let conversation = [...plan.conversation, ...prepared.conversation];
    let input = prepared.conversation.length ? plan.render(conversation) : plan.input;
    const total = { input: compaction?.usage.inputTokens ?? 0, cached: 0, output: compaction?.usage.outputTokens ?? 0, reasoning: 0 };
    const usage = (): Usage => usageOf(total);
    let builtinCallsRun = prepared.calls;
    if (this.stopReason) return { ...this.stopped(), usage: usage() };
    // A program resumed by the client's answers called the client again: the response waits for those answers.
    if (this.builder.functionCallCount > 0) return { status: 'completed', usage: usage() };

    for (let round = 1; ; round++) {
      const steered = this.steered(usage());
      if (steered) return steered;
      const firstItem = this.builder.itemCount;
      const budget = plan.maxOutputTokens !== undefined ? plan.maxOutputTokens - total.output : undefined;
      this.current = { conversation, outputTokens: total.output };
      const result = await modelRound(this.roundContext, input, budget, plan.describe(conversation));
      total.input += result.inputTokens;
      total.cached += result.cachedTokens;
      total.output += result.outputTokens;
      total.reasoning += result.reasoningTokens;
      if (this.stopReason) return { ...this.stopped(), usage: usage() };
      // Builtin calls the model already wrote run first; the next round's check ends the run.
      const steeredNow = this.pending.length === 0 ? this.steered(usage()) : null;
      if (steeredNow) return steeredNow;
      if (result.finish === 'length') return { status: 'incomplete', reason: 'max_output_tokens', usage: usage() };
      if (result.finish === 'content_filter') return { status: 'incomplete', reason: 'content_filter', usage: usage() };

      const calls = this.pending.splice(0);
      if (calls.length === 0) return { status: 'completed', usage: usage() };
      this.current = { conversation, outputTokens: total.output };
      const shown = new Map<number, ConversationItem[]>();
      for (const call of calls) {
        shown.set(call.index, await call.run());
        builtinCallsRun++;
        if (this.stopReason) return { ...this.stopped(), usage: usage() };
      }
      // Function calls and approval requests go back to the client, which answers in its next request.
      if (this.builder.functionCallCount > 0 || this.builder.waitingCount > 0) return { status: 'completed', usage: usage() };
      if (plan.maxToolCalls !== undefined && builtinCallsRun >= plan.maxToolCalls) return { status: 'completed', usage: usage() };
      if (round >= plan.maxToolRounds) return { status: 'incomplete', usage: usage() };

      const produced = this.builder.itemsFrom(firstItem).flatMap((item, i) => shown.get(firstItem + i) ?? toConversation([item], this.ports.tools));
      conversation = [...conversation, ...produced];
      input = plan.render(conversation);
    }
  }

  /**
   * Tokens of context what a call shows may take (retrieved passages): the window, less the conversation so far
   * (with room for the call and its framing) and the answer still to come (`max_output_tokens`
   * left, else a quarter of the window up to 1,024).
   */
  private async contextLeft(): Promise<number> {
    const { conversation, outputTokens: outputSoFar } = this.current;
    const window = this.plan.contextWindow;
    if (!window) return Infinity;
    const prompt = await this.ports.engine.countTokens(this.plan.model, this.plan.render(conversation));
    const answer = this.plan.maxOutputTokens !== undefined ? Math.max(0, this.plan.maxOutputTokens - outputSoFar) : Math.min(1024, Math.floor(window / 4));
    return window - prompt - answer - 256;
  }

  private async finish(outcome: Outcome): Promise<ResponseObject> {
    this.builder.finish(outcome.status === 'completed' ? 'completed' : 'incomplete');
    const output = this.builder.snapshot();
    this.response = {
      ...this.response,
      status: outcome.status,
      output,
      output_text: textOf(output),
      completed_at: outcome.status === 'completed' ? this.ports.now() : null,
      error: outcome.error ?? null,
      incomplete_details: outcome.reason ? { reason: outcome.reason } : null,
      usage: outcome.usage ?? null,
    };
    const terminal = outcome.deleted ? null : terminalEventType(outcome.status);
    if (terminal) this.emit({ type: terminal, response: this.response });
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    // The final snapshot and the rest of the log land in one transaction.
    const rest = this.log.takeUnsaved();
    await this.flushing;
    if (this.store && !outcome.deleted) {
      try {
        // Once finished, only a background response's stream can be retrieved again (as on
        // OpenAI): another's log has served its readers and takeover recovery, and goes.
        const dropLog = !this.response.background && !this.ports.keepLog;
        await this.store.save(this.response, this.plan.logEvents ? rest : [], this.conversationAppend(outcome), { dropLog });
      } catch (err) {
        // The client still gets the result; the next runtime marks the stored copy interrupted.
        reportPersistFailure(this.id, err);
      }
    }
    this.log.close();
    return this.response;
  }

  /**
   * What the turn adds to its conversation: its input and output when the model's answer
   * stands — `completed`, or `incomplete` because a limit (`max_output_tokens`, tool
   * rounds) ended it. A failed, cancelled or cut-off (client gone) turn adds nothing, so the
   * conversation never holds half a turn and the same turn can simply be sent again.
   */
  private conversationAppend(outcome: Outcome): StoredItem[] | undefined {
    const input = this.plan.conversationInput;
    if (!input || outcome.stopped) return undefined;
    if (outcome.status !== 'completed' && outcome.status !== 'incomplete') return undefined;
    return [...input, ...this.response.output];
  }
}

interface Outcome {
  status: ResponseStatus;
  error?: ResponseErrorInfo & { code: 'server_error' | 'rate_limit_exceeded' };
  reason?: 'max_output_tokens' | 'content_filter' | 'steered';
  usage?: Usage;
  deleted?: boolean;
  /** The run was stopped (cancel, delete, disconnect, shutdown) rather than ending by itself. */
  stopped?: boolean;
}

export const INTERRUPTED =
  'The response was interrupted because the local runtime stopped (the tab running it was closed or reloaded). Send the request again.';

/** Storage failing (quota, closed database) must not take the run down with it; it is logged. */
function reportPersistFailure(id: string, err: unknown): void {
  console.error(`Could not persist response ${id} to IndexedDB: ${describeError(err)}`);
}

function functionNames(plan: RunPlan): string {
  return plan.sessions
    .functions()
    .map((f) => f.name)
    .join('\n');
}

function usageOf(total: { input: number; cached: number; output: number; reasoning: number }): Usage {
  return {
    input_tokens: total.input,
    input_tokens_details: { cached_tokens: total.cached, cache_write_tokens: 0 },
    output_tokens: total.output,
    output_tokens_details: { reasoning_tokens: total.reasoning },
    total_tokens: total.input + total.output,
  };
}

function textOf(output: ResponseObject['output']): string {
  return output
    .flatMap((i) => (i.type === 'message' ? i.content : []))
    .map((c) => (c.type === 'output_text' ? c.text : ''))
    .join('');
}
