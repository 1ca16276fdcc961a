/**
 * `POST /v1/responses/compact`: the compacted window of a conversation (its `input`, its
 * `previous_response_id` chain or its `conversation`), as OpenAI returns it — the user
 * messages kept as they are, then one `compaction` item whose sealed summary the model
 * wrote and which stands for everything else. The client sends that window (plus what
 * comes next) as the input of its next create. Nothing is stored or changed.
 *
 * The user messages kept are the newest that fit a quarter of the context window: on a
 * small local model, all of a long chat's questions would not fit, and the summary covers
 * the rest.
 */
import { parseCompactRequest, type CompactRequest } from '../../protocol/compact-request';
import type { StoredItem } from '../../protocol/output-items';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { newId } from '../../shared/ids';
import { checkToolOutputs, toConversation } from '../request/chain-history';
import { compactionItem, summarize, withEngine } from '../request/compaction';
import { windowConversation } from '../request/compaction-window';
import { readRequestContext } from '../request/request-context';
import { lookupModel, type ServedModel, type ServerState } from '../server-state';
import { readJsonBody } from './http/read-json';

/** At most this many user messages are considered for keeping (each costs a count). */
const MAX_KEPT = 32;

export async function compactResponse(state: ServerState, httpRequest: Request): Promise<Response> {
  const request = parseCompactRequest(await readJsonBody(httpRequest));
  const model = lookupModel(state, request.model);
  const window = await windowOf(state, request);
  const kept = await keptUserMessages(model, window);
  const covered = await windowConversation(window, (item) => state.compactions.open(item.encrypted_content, 'input'));
  const instructions = request.instructions ? [{ type: 'message' as const, role: 'developer' as const, text: request.instructions }] : [];
  const { summary, usage } = await withEngine(model, httpRequest.signal, () => summarize(model, [...instructions, ...covered], httpRequest.signal));
  const compaction = await compactionItem(state, summary, kept.length);
  return Response.json({
    id: newId('resp'),
    object: 'response.compaction',
    created_at: state.now(),
    output: [...kept, compaction],
    usage: {
      input_tokens: usage.inputTokens,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: usage.outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.inputTokens + usage.outputTokens,
    },
  });
}

/** The context the request names: the conversation's items or the chain's, then the input. */
async function windowOf(state: ServerState, request: CompactRequest): Promise<StoredItem[]> {
  const { history, input } = await readRequestContext(state, request);
  if (history.length === 0 && input.length === 0)
    throw invalidRequest("Missing required parameter: 'input' (or 'previous_response_id', or 'conversation'): there is nothing to compact.", 'input', Codes.missingRequiredParameter);
  checkToolOutputs(history, input);
  return [...history, ...input];
}

/** The newest user messages in view whose rendering fits a quarter of the context window, oldest first. */
async function keptUserMessages(model: ServedModel, window: StoredItem[]): Promise<StoredItem[]> {
  const since = window.findLastIndex((item) => item.type === 'compaction');
  const candidates = window.filter((item, i) => item.type === 'message' && item.role === 'user' && (i > since || since < 0)).slice(-MAX_KEPT);
  const budget = Math.floor(model.info.context_window / 4);
  const kept: StoredItem[] = [];
  for (const item of [...candidates].reverse()) {
    const trial = [item, ...kept];
    const tokens = await model.engine.countTokens(model.info.id, model.format.render({ items: toConversation(trial), tools: [] }));
    if (tokens > budget) break;
    kept.unshift(item);
  }
  return kept;
}
