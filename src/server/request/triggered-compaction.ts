/**
 * A `compaction_trigger` as the last input item: the response is the compaction of everything
 * before it — the chain's or conversation's items and the input — written by the model as
 * `POST /v1/responses/compact` writes it (compaction.ts), and nothing else. Its output is the
 * one `compaction` item, stored with the response (and appended to its conversation); a later
 * turn that continues it is shown the summary in place of what it covers
 * (compaction-window.ts). Settings that items declared earlier (additional_tools,
 * configuration_update) stay in effect: they are read from the stored items, not the summary.
 */
import type { CreateResponseRequest } from '../../protocol/create-request';
import type { Compaction } from '../../protocol/output-items';
import { compactionItem, summarize, withEngine } from './compaction';
import { windowConversation } from './compaction-window';
import type { PreparedRequest } from './prepare-request';
import type { RunPlan } from './run-plan';
import type { ServerState } from '../state/server-state';

export function endsWithCompactionTrigger(request: Pick<CreateResponseRequest, 'input'>): boolean {
  return Array.isArray(request.input) && request.input.at(-1)?.type === 'compaction_trigger';
}

/** The plan of a triggered compaction: the summary written now (holding the engine), the run only shows it. */
export async function triggeredCompaction(state: ServerState, prepared: PreparedRequest, signal: AbortSignal): Promise<{ plan: RunPlan; promptTokens: number }> {
  const { model, shown } = prepared;
  const covered = await windowConversation(shown, state.tools, (item: Compaction) => state.compactions.open(item.encrypted_content, 'input'));
  const instructions = prepared.request.instructions ? [{ type: 'message' as const, role: 'developer' as const, text: prepared.request.instructions }] : [];
  const { summary, usage } = await withEngine(model, signal, () => summarize(model, [...instructions, ...covered], signal));
  // Nothing before it stays in view: the summary stands for all of it.
  const item = await compactionItem(state, summary, 0);
  return { plan: { ...prepared.plan, compaction: { item, usage, only: true } }, promptTokens: usage.inputTokens };
}
