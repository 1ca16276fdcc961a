/**
 * The `previous_response_id` chain a request continues (each response's input, then its
 * output), read whole or refused; and OpenAI's rule on tool outputs. How these items look to
 * the model is model-view/to-conversation.ts.
 */
import type { StoredItem } from '../../protocol/output-items';
import { TERMINAL_STATUSES } from '../../protocol/response-object';
import type { ResponseStore } from '../../ports/response-store';
import { invalidRequest, notFound } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';

/** Items of the whole chain ending at `previousId`, oldest first. */
export async function chainItems(store: ResponseStore, previousId: string | null | undefined): Promise<StoredItem[]> {
  if (!previousId) return [];
  const chain = await store.chain(previousId);
  if (!chain) throw notFound(`Previous response with id '${previousId}' not found.`, 'previous_response_id', Codes.previousResponseNotFound);
  if (!TERMINAL_STATUSES.has(chain.last.status))
    throw invalidRequest(
      `Previous response with id '${previousId}' is still ${chain.last.status}. Wait for it to finish (or cancel it) before continuing the conversation.`,
      'previous_response_id',
      Codes.previousResponseInProgress,
    );
  if (chain.missing)
    throw notFound(`Response '${chain.missing}' earlier in the previous_response_id chain no longer exists.`, 'previous_response_id', Codes.previousResponseNotFound);
  return chain.turns.flatMap((turn) => [...turn.input, ...turn.output]);
}

/** Every function_call_output must answer a function_call the conversation contains (OpenAI's rule). */
export function checkToolOutputs(history: StoredItem[], input: StoredItem[]): void {
  const calls = new Set([...history, ...input].flatMap((i) => (i.type === 'function_call' ? [i.call_id] : [])));
  input.forEach((item, i) => {
    if (item.type === 'function_call_output' && !calls.has(item.call_id))
      throw invalidRequest(`No tool call found for function call output with call_id ${item.call_id}.`, `input[${i}].call_id`, Codes.invalidValue);
  });
}
