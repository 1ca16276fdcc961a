/**
 * Compaction: the model itself writes a summary of the earlier conversation, which then
 * stands in for it (compaction-window.ts) as a sealed `compaction` item. Used by
 * `POST /v1/responses/compact` and by `context_management` on create (auto-compaction.ts).
 *
 * The summary is one generation on the request's model, in its line like any response: the
 * conversation to cover, then a user turn asking for the summary. When that does not fit
 * the model's context window (with room for the summary), the oldest turns are left out of
 * it, as `truncation: "auto"` would; an earlier summary, shown as a developer note, stays.
 */
import type { ConversationItem } from '../../chat/chat-format';
import type { Compaction } from '../../protocol/output-items';
import { newId } from '../../shared/ids';
import { truncateToFit } from './truncate-conversation';
import type { ServedModel, ServerState } from '../state/server-state';

export const SUMMARY_INSTRUCTIONS =
  'You compact conversations. Summarize the conversation you are shown so that it can be continued from the summary alone: ' +
  'the user’s goals and questions, facts and names given, decisions taken, answers and results so far, and what is still open. ' +
  'Write plain prose, no preamble.';

export const SUMMARY_REQUEST = 'Summarize the conversation so far, as instructed, so it can be continued from your summary alone.';

export interface CompactionUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Room the summary may take: a quarter of the window, at most 1,024 tokens. */
export function summaryBudget(contextWindow: number): number {
  return Math.max(16, Math.min(1024, Math.floor(contextWindow / 4)));
}

/** Runs `work` holding the model's engine (its place in line taken first), then lets the next response in. */
export async function withEngine<T>(model: ServedModel, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  const place = model.queue.reserve();
  const release = await place.take(signal);
  try {
    await model.engine.ensureLoaded?.(model.info.id, signal);
    return await work();
  } finally {
    release();
  }
}

/** The model's summary of `covered` (already windowed), and what writing it cost. Call holding the engine. */
export async function summarize(model: ServedModel, covered: readonly ConversationItem[], signal: AbortSignal): Promise<{ summary: string; usage: CompactionUsage }> {
  const budget = summaryBudget(model.info.context_window);
  const limit = model.info.context_window - budget;
  const describe = (items: readonly ConversationItem[]) => ({ instructions: SUMMARY_INSTRUCTIONS, items: [...items], tools: [] });
  const render = (items: readonly ConversationItem[]) => model.format.render(describe(items));
  const count = (items: readonly ConversationItem[]) => model.engine.countTokens(model.info.id, render(items));
  let items: ConversationItem[] = [...covered, { type: 'message', role: 'user', text: SUMMARY_REQUEST }];
  if ((await count(items)) > limit) items = await truncateToFit(items, limit, count);

  const generation = model.engine.generate({ model: model.info.id, input: render(items), conversation: describe(items), signal, maxOutputTokens: budget, enableThinking: false });
  const usage = await generation.usage;
  // The raw text goes through the family's parser (an engine that parses its own output gives
  // events): what the model thought (`<think>`, reasoning) is not the summary.
  const parser = model.format.createParser({ toolNames: new Set() });
  let summary = '';
  let outputTokens = 0;
  for await (const delta of generation) {
    outputTokens += delta.tokens;
    const events = model.engine.parsesOutput ? (delta.events ?? []) : parser.push(delta.text);
    for (const event of events) if (event.type === 'text') summary += event.text;
  }
  if (!model.engine.parsesOutput) for (const event of parser.end()) if (event.type === 'text') summary += event.text;
  const final = (await generation.finalUsage?.catch(() => undefined)) ?? usage;
  return { summary: summary.trim(), usage: { inputTokens: final.inputTokens, outputTokens: final.outputTokens ?? outputTokens } };
}

/** A sealed compaction item with `summary`, leaving the `tail` items just before it in view. */
export async function compactionItem(state: ServerState, summary: string, tail: number): Promise<Compaction> {
  return { type: 'compaction', id: newId('cmp'), encrypted_content: await state.compactions.seal({ summary, tail }) };
}
