/**
 * `context_management: [{type: "compaction", compact_threshold?}]` on create: when the
 * rendered prompt would cross the threshold — or, without one, would not fit the model's
 * context window with room for the answer — everything before the newest turn is compacted
 * first (the model writes the summary, compaction.ts), and the response is generated from
 * the summary and the newest turn. The response's output then begins with the `compaction`
 * item, as OpenAI's does; sent back (in the input, the chain or the conversation) it keeps
 * standing for what it replaced (compaction-window.ts).
 *
 * It runs before the response exists, holding the model's engine like any generation: a
 * streamed or background response starts once the summary is written.
 */
import type { CreateResponseRequest } from '../../protocol/create-request';
import type { Compaction, StoredItem } from '../../protocol/output-items';
import { compactionItem, summarize, summaryBudget, withEngine } from './compaction';
import { newestTurnStart, windowConversation } from './compaction-window';
import type { RunPlan } from './run-plan';
import type { ServedModel, ServerState } from '../state/server-state';
import type { ConversationItem } from '../../chat/chat-format';

export interface AutoCompacted {
  /** The plan from the summary and the newest turn; `plan.compaction` is the item and what writing it cost. */
  plan: RunPlan;
  promptTokens: number;
}

interface Prepared {
  request: CreateResponseRequest;
  model: ServedModel;
  window: StoredItem[];
  /** `window` as the model is shown it, item for item (files as text, images as data: URLs). */
  shown: StoredItem[];
  /** The whole window's prompt in the model's tokens, before any truncation. */
  untruncatedTokens: number;
  planFor(conversation: readonly ConversationItem[]): RunPlan;
}

/** The token count past which `request` compacts; null when it does not ask for compaction. */
export function compactionThreshold(request: CreateResponseRequest, contextWindow: number): number | null {
  const entry = request.context_management?.find((e) => e.type === 'compaction');
  if (!entry) return null;
  return entry.compact_threshold ?? contextWindow - (request.max_output_tokens ?? summaryBudget(contextWindow));
}

/** The request's plan after compacting its older items, or null when it need not (or cannot) compact. */
export async function autoCompact(state: ServerState, prepared: Prepared, signal: AbortSignal): Promise<AutoCompacted | null> {
  const { request, model, window, shown, untruncatedTokens, planFor } = prepared;
  const threshold = compactionThreshold(request, model.info.context_window);
  if (threshold === null) return null;
  const open = (item: Compaction) => state.compactions.open(item.encrypted_content, 'input');
  const count = (plan: RunPlan) => model.engine.countTokens(model.info.id, plan.input);
  // Counted untruncated (by prepareRequest): `truncation: "auto"` may have dropped turns a compaction should summarize.
  if (untruncatedTokens <= threshold) return null;

  const start = newestTurnStart(window);
  const older = window.slice(0, start);
  // Nothing but instructions and an earlier summary before the newest turn: compacting again gains nothing.
  if (!older.some((item) => item.type !== 'compaction' && !(item.type === 'message' && item.role !== 'user' && item.role !== 'assistant'))) return null;

  const covered = await windowConversation(shown.slice(0, start), state.tools, open);
  const { summary, usage } = await withEngine(model, signal, () => summarize(model, covered, signal));
  const item = await compactionItem(state, summary, window.length - start);
  const plan = planFor(await windowConversation([...shown, item], state.tools, open));
  return { plan: { ...plan, compaction: { item, usage } }, promptTokens: await count(plan) };
}
