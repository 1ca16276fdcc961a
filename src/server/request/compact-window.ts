/**
 * What `POST /v1/responses/compact` computes: the compacted window of a conversation (its
 * `input`, its `previous_response_id` chain or its `conversation`) — the newest user
 * messages that fit a quarter of the context window, kept as they are, then one `compaction`
 * item whose sealed summary the model wrote and which stands for everything else. Nothing
 * is stored or changed.
 */
import type { CompactRequest } from '../../protocol/compact-request';
import type { StoredItem } from '../../protocol/output-items';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { toConversation } from '../model-view/to-conversation';
import { resolveModel, type ServedModel, type ServerState } from '../state/server-state';
import { checkToolOutputs } from './chain-history';
import { compactionItem, summarize, withEngine, type CompactionUsage } from './compaction';
import { windowConversation } from './compaction-window';
import type { ToolRegistry } from '../state/tool-registry';
import { readRequestContext } from './request-context';
import { compactionModel } from './route-decision';

/** At most this many user messages are considered for keeping (each costs a count). */
const MAX_KEPT = 32;

/** The context the request names: the conversation's items or the chain's, then the input. */
async function windowOf(state: ServerState, request: CompactRequest): Promise<StoredItem[]> {
  const { history, input } = await readRequestContext(state, request);
  if (history.length === 0 && input.length === 0)
    throw invalidRequest("Missing required parameter: 'input' (or 'previous_response_id', or 'conversation'): there is nothing to compact.", 'input', Codes.missingRequiredParameter);
  checkToolOutputs(history, input);
  return [...history, ...input];
}

/** The newest user messages in view whose rendering fits a quarter of the context window, oldest first. */
async function keptUserMessages(model: ServedModel, window: StoredItem[], tools: ToolRegistry): Promise<StoredItem[]> {
  const since = window.findLastIndex((item) => item.type === 'compaction');
  const candidates = window.filter((item, i) => item.type === 'message' && item.role === 'user' && (i > since || since < 0)).slice(-MAX_KEPT);
  const budget = Math.floor(model.info.context_window / 4);
  const kept: StoredItem[] = [];
  for (const item of [...candidates].reverse()) {
    const trial = [item, ...kept];
    const tokens = await model.engine.countTokens(model.info.id, model.format.render({ items: toConversation(trial, tools), tools: [] }));
    if (tokens > budget) break;
    kept.unshift(item);
  }
  return kept;
}

/** The compacted window the request names, and what writing its summary cost. */
export async function compactWindow(state: ServerState, request: CompactRequest, signal: AbortSignal): Promise<{ output: StoredItem[]; usage: CompactionUsage }> {
  const model = await resolveModel(state, await compactionModel(state, request.model));
  const window = await windowOf(state, request);
  const kept = await keptUserMessages(model, window, state.tools);
  const covered = await windowConversation(window, state.tools, (item) => state.compactions.open(item.encrypted_content, 'input'));
  const instructions = request.instructions ? [{ type: 'message' as const, role: 'developer' as const, text: request.instructions }] : [];
  const { summary, usage } = await withEngine(model, signal, () => summarize(model, [...instructions, ...covered], signal));
  return { output: [...kept, await compactionItem(state, summary, kept.length)], usage };
}
