/**
 * One round of a run: one model call, its raw text streamed through the chat format's
 * parser into output items (text, reasoning, tool calls), with the round's token counts.
 * Deltas faster than the engine's window go to the parser together (`Engine.deltaWindowMs`).
 * An engine that parses its own output (an upstream server, `Engine.parsesOutput`) is given
 * the structured conversation and its events are taken as they are (parsed-round.ts).
 */
import type { ParseEvent, Rendered, RenderInput } from '../../chat/chat-format';
import type { Engine, FinishReason } from '../../ports/engine';
import type { Logprob } from '../../protocol/output-items';
import { pacedBatches } from '../../shared/paced-batches';
import type { RunPlan } from '../request/run-plan';
import type { OutputBuilder } from './output-builder';
import { TextLogprobs } from './text-logprobs';
import { parsedRound } from './parsed-round';

/** What a round works with: the run's plan, engine and output, and the run's stop signal. */
export interface RoundContext {
  plan: RunPlan;
  engine: Engine;
  builder: OutputBuilder;
  /** Aborted when the run is stopped: the engine stops within one token. */
  signal: AbortSignal;
  /** Builtin calls the model wrote this round and the run has not carried out yet. */
  pendingCalls(): number;
}

export interface RoundResult {
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  finish: FinishReason;
}

/**
 * One model call; `budget`: the output tokens the run has left, if bounded. `conversation`:
 * what `input` was rendered from, given to engines that template for themselves.
 */
export async function modelRound(context: RoundContext, input: Rendered, budget: number | undefined, conversation?: RenderInput): Promise<RoundResult> {
  const { plan, engine, builder } = context;

  // The engine stops when the run is stopped (even before this point), or once a single allowed call is complete.
  const generation = new AbortController();
  const signal = AbortSignal.any([context.signal, generation.signal]);

  const stream = engine.generate({
    model: plan.model,
    input,
    ...(conversation ? { conversation } : {}),
    signal,
    ...plan.generation,
    ...(budget !== undefined ? { maxOutputTokens: budget } : {}),
  });
  // With parallel_tool_calls: false the first complete call ends the turn; what follows is dropped.
  const single = plan.singleCall;
  const callMade = () => single && builder.functionCallCount + builder.waitingCount + context.pendingCalls() > 0;
  if (engine.parsesOutput) return parsedRound(stream, engine, builder, { callMade, stop: () => generation.abort() });

  const parser = plan.createParser();
  const usage = await stream.usage;
  const deltas: Array<[number, number, number]> = [];
  let position = 0;
  let outputTokens = 0;
  const logprobs = plan.generation.topLogprobs !== undefined ? new TextLogprobs() : null;
  const accept = (events: ParseEvent[]) =>
    acceptAll(builder, events, callMade, (length) => logprobs?.take(length, [...parser.reasoningSpans(), ...parser.toolCallSpans()]) ?? []);
  for await (const batch of pacedBatches(stream, { intervalMs: engine.deltaWindowMs ?? 0 })) {
    let text = '';
    for (const delta of batch) {
      deltas.push([position, position + delta.text.length, delta.tokens]);
      position += delta.text.length;
      outputTokens += delta.tokens;
      text += delta.text;
      logprobs?.record(delta.text.length, delta.logprobs);
    }
    accept(parser.push(text));
    if (callMade()) generation.abort();
  }
  accept(parser.end());

  const reasoningTokens = deltas
    .filter(([start, end]) => parser.reasoningSpans().some(([s, e]) => start < e && s < end))
    .reduce((sum, [, , tokens]) => sum + tokens, 0);
  // Engines that only learn exact prompt counts at the end (web-llm) report them here;
  // `finalUsage` only rejects when `usage` did, which the run handles.
  const final = (await stream.finalUsage?.catch(() => undefined)) ?? usage;
  return { inputTokens: final.inputTokens, cachedTokens: final.cachedTokens, outputTokens, reasoningTokens, finish: stream.finishReason() };
}

/**
 * Hands parsed events to the builder, dropping everything after the call that ends a
 * single-call turn. `logprobsOf(length)`: the logprobs of a text event's next characters.
 */
function acceptAll(builder: OutputBuilder, events: ParseEvent[], callMade: () => boolean, logprobsOf: (length: number) => Logprob[]): void {
  for (const event of events) {
    if (callMade()) return;
    builder.accept(event, event.type === 'text' ? logprobsOf(event.text.length) : []);
  }
}
