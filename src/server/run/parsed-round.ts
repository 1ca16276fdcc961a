/**
 * A model round on an engine that parses its own output (an upstream server that templates
 * and parses its model's format, `Engine.parsesOutput`): its deltas carry parse events, which
 * go to the output builder as they are — no chat-format parser reads them again, so text a
 * model writes stays text whatever tags it contains. Deltas faster than the engine's window
 * go together, consecutive text (and reasoning) merged into one event.
 */
import type { ParseEvent } from '../../chat/chat-format';
import type { Engine, EngineDelta, Generation } from '../../ports/engine';
import type { Logprob } from '../../protocol/output-items';
import { pacedBatches } from '../../shared/paced-batches';
import type { RoundResult } from './model-round';
import type { OutputBuilder } from './output-builder';

export interface ParsedRoundHooks {
  /** A call that ends a single-call turn was made: the rest of the round is dropped. */
  callMade(): boolean;
  /** Stops the engine (the round then ends as the stream does). */
  stop(): void;
}

interface Step {
  event: ParseEvent;
  logprobs: Logprob[];
}

/** The events of `batch`, in order, adjacent text and reasoning merged (with their logprobs). */
export function mergedSteps(batch: readonly EngineDelta[]): Step[] {
  const steps: Step[] = [];
  for (const delta of batch) {
    const events = delta.events ?? (delta.text ? [{ type: 'text' as const, text: delta.text }] : []);
    for (const event of events) {
      const logprobs = event.type === 'text' ? (delta.logprobs ?? []).map((l) => structuredClone(l)) : [];
      const last = steps.at(-1);
      if (last && (event.type === 'text' || event.type === 'reasoning') && last.event.type === event.type) {
        last.event = { type: event.type, text: last.event.text + event.text };
        last.logprobs.push(...logprobs);
      } else steps.push({ event: { ...event }, logprobs });
    }
  }
  return steps;
}

export async function parsedRound(stream: Generation, engine: Engine, builder: OutputBuilder, hooks: ParsedRoundHooks): Promise<RoundResult> {
  const usage = await stream.usage;
  let outputTokens = 0;
  let reasoningTokens = 0;
  for await (const batch of pacedBatches(stream, { intervalMs: engine.deltaWindowMs ?? 0 })) {
    for (const delta of batch) {
      outputTokens += delta.tokens;
      if (delta.events?.some((e) => e.type === 'reasoning')) reasoningTokens += delta.tokens;
    }
    for (const { event, logprobs } of mergedSteps(batch)) {
      if (hooks.callMade()) break;
      builder.accept(event, logprobs);
    }
    if (hooks.callMade()) hooks.stop();
  }
  // The upstream's own counts, when it sent them, are the round's.
  const final = (await stream.finalUsage?.catch(() => undefined)) ?? usage;
  return {
    inputTokens: final.inputTokens,
    cachedTokens: final.cachedTokens,
    outputTokens: final.outputTokens ?? outputTokens,
    reasoningTokens: final.reasoningTokens ?? reasoningTokens,
    finish: stream.finishReason(),
  };
}
