/**
 * What the model sees: the `previous_response_id` chain (each response's input, then its
 * output), then the new input — flattened to text for the chat format.
 */
import type { ConversationItem } from '../../chat/chat-format';
import type { StoredItem } from '../../protocol/output-items';
import { builtinCallAsConversation } from '../run/builtin-calls';
import { approvalAsConversation, approvalRequests, mcpCallAsConversation } from '../run/mcp-calls';
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

function partsText(parts: ReadonlyArray<{ type: string; text?: string }>): string {
  return parts
    .filter((p) => typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n');
}

/** Stored items as the chat format reads them (images are left out: our models read text). */
export function toConversation(items: StoredItem[]): ConversationItem[] {
  const requests = approvalRequests(items);
  return items.flatMap((item): ConversationItem | ConversationItem[] => {
    switch (item.type) {
      case 'message':
        return {
          type: 'message',
          role: item.role,
          text: item.content.map((c) => (c.type === 'refusal' ? c.refusal : 'text' in c ? c.text : '')).filter(Boolean).join('\n'),
        };
      case 'function_call':
        return { type: 'function_call', call_id: item.call_id, name: item.name, arguments: item.arguments };
      case 'function_call_output':
        return { type: 'function_call_output', call_id: item.call_id, output: typeof item.output === 'string' ? item.output : partsText(item.output) };
      case 'reasoning':
        return { type: 'reasoning', text: item.content.length ? partsText(item.content) : partsText(item.summary) };
      // Builtin calls replay as the function call the model made and the result it was shown.
      case 'code_interpreter_call':
      case 'web_search_call':
        return builtinCallAsConversation(item);
      case 'mcp_call':
        return mcpCallAsConversation(item);
      case 'mcp_approval_response':
        return approvalAsConversation(requests.get(item.approval_request_id), item.approve, item.reason);
      // A tool list is told to the model as its tools; a request waits for its answer (above).
      case 'mcp_list_tools':
      case 'mcp_approval_request':
        return [];
      // Shown as its summary, in its place, by compaction-window.ts.
      case 'compaction':
        return [];
    }
  });
}

/** Every function_call_output must answer a function_call the conversation contains (OpenAI's rule). */
export function checkToolOutputs(history: StoredItem[], input: StoredItem[]): void {
  const calls = new Set([...history, ...input].flatMap((i) => (i.type === 'function_call' ? [i.call_id] : [])));
  input.forEach((item, i) => {
    if (item.type === 'function_call_output' && !calls.has(item.call_id))
      throw invalidRequest(`No tool call found for function call output with call_id ${item.call_id}.`, `input[${i}].call_id`, Codes.invalidValue);
  });
}
