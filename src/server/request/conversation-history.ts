import type { StoredItem } from '../../protocol/output-items';
import { invalidRequest, notFound } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import type { ServerState } from '../state/server-state';
import { endedAndSaved } from './ended-run';

export function conversationNotFound(id: string, param: string | null = null) {
  return notFound(`Conversation with id '${id}' not found.`, param, null);
}

/**
 * A conversation's items, the context of its next turn (one range read). A turn still
 * running would append after this one's context was read: the conversation is locked until it ends.
 */
export async function conversationHistory(state: ServerState, id: string): Promise<StoredItem[]> {
  for (const run of [...state.runs.values()])
    if (run.conversationId === id && !(await endedAndSaved(run)))
      throw invalidRequest(
        `Another response (${run.id}) is currently running in conversation '${id}'. Wait for it to finish (or cancel it), then send this turn again.`,
        'conversation',
        Codes.conversationLocked,
      );
  const items = await state.store.conversationItems(id);
  if (!items) throw conversationNotFound(id, 'conversation');
  return items;
}
