/**
 * What a request that continues earlier state reads before it runs: its conversation's
 * items or its `previous_response_id` chain (never both, as OpenAI answers), then its own
 * input, normalized (item references resolved, sealed reasoning and compaction opened).
 * One home for `POST /v1/responses` and `POST /v1/responses/compact`, so both read
 * context, and refuse it, alike.
 */
import type { InputItem } from '../../protocol/input-item-schemas';
import type { StoredItem } from '../../protocol/output-items';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { chainItems } from './chain-history';
import { endedAndSaved } from './ended-run';
import { normalizeInput } from './normalize-input';
import { conversationHistory } from './conversation-history';
import type { ServerState } from '../state/server-state';

export interface ContextRequest {
  conversation?: string | { id: string } | null | undefined;
  previous_response_id?: string | null | undefined;
  input?: string | InputItem[] | null | undefined;
}

export interface RequestContext {
  /** The conversation the request continues, or null. */
  conversationId: string | null;
  /** The earlier items: the conversation's, or the chain's (empty for neither). */
  history: StoredItem[];
  /** The request's own input items. */
  input: StoredItem[];
}

export function conversationIdOf(request: Pick<ContextRequest, 'conversation'>): string | null {
  const { conversation } = request;
  if (conversation === undefined || conversation === null) return null;
  return typeof conversation === 'string' ? conversation : conversation.id;
}

/**
 * Where a `previous_response_id` chain is read from before storage: a WebSocket connection's
 * cache of its latest responses (`store: false` ones exist nowhere else). Returns the chain's
 * items, oldest first, or undefined when it does not hold that response.
 */
export type CachedChain = (previousId: string) => StoredItem[] | undefined;

export async function readRequestContext(state: ServerState, request: ContextRequest, cached?: CachedChain): Promise<RequestContext> {
  const conversationId = conversationIdOf(request);
  if (conversationId !== null && request.previous_response_id)
    throw invalidRequest(
      "Mutually exclusive parameters: Ensure you are only providing one of: 'previous_response_id' or 'conversation'.",
      null,
      Codes.mutuallyExclusiveParameters,
    );
  const fromCache = request.previous_response_id ? cached?.(request.previous_response_id) : undefined;
  if (request.previous_response_id && !fromCache) await endedAndSaved(state.runs.get(request.previous_response_id));
  const history =
    conversationId !== null ? await conversationHistory(state, conversationId) : (fromCache ?? (await chainItems(state.store, request.previous_response_id)));
  const input = await normalizeInput(request.input ?? undefined, {
    findItem: (id) => state.store.findItem(id),
    tools: state.tools,
    openSealed: (id, sealed, param) => state.sealer.open(id, sealed, param),
    checkCompaction: (sealed, param) => state.compactions.open(sealed, param),
  });
  return { conversationId, history, input };
}
