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

/** Which call each kind of tool output answers, and how OpenAI's message names the output. */
const ANSWERS: Record<string, { call: StoredItem['type']; what: string }> = {
  function_call_output: { call: 'function_call', what: 'function call output' },
  custom_tool_call_output: { call: 'custom_tool_call', what: 'custom tool call output' },
  shell_call_output: { call: 'shell_call', what: 'shell call output' },
  local_shell_call_output: { call: 'local_shell_call', what: 'local shell call output' },
  apply_patch_call_output: { call: 'apply_patch_call', what: 'apply patch call output' },
  computer_call_output: { call: 'computer_call', what: 'computer call output' },
};

/**
 * Every tool output must answer a call of its kind that the conversation contains (OpenAI's
 * rule). A `local_shell_call_output` that names its call by the call item's `id` (OpenAI's
 * type) is pointed at that call's `call_id` here.
 */
export function checkToolOutputs(history: StoredItem[], input: StoredItem[]): void {
  const all = [...history, ...input];
  input.forEach((item, i) => {
    const answers = ANSWERS[item.type];
    if (!answers || !('call_id' in item)) return;
    const calls = all.filter((c) => c.type === answers.call);
    if (calls.some((c) => 'call_id' in c && c.call_id === item.call_id)) return;
    const byId = item.type === 'local_shell_call_output' ? calls.find((c) => c.id === item.call_id) : undefined;
    if (byId && 'call_id' in byId) {
      item.call_id = byId.call_id;
      return;
    }
    throw invalidRequest(`No tool call found for ${answers.what} with call_id ${item.call_id}.`, `input[${i}].call_id`, Codes.invalidValue);
  });
}
