/**
 * A conversation's items (GET /v1/conversations/{id}/items, oldest first) as the chat's
 * turns: each user message (or `mcp_approval_response`) opens a turn, and every item after
 * it up to the next one — reasoning, tool calls and their results, the assistant's
 * message — is that turn's output, which the answer renders as it renders a live one.
 * System and developer messages are context, not turns: they are not shown.
 */
import type { ConversationItem } from 'openai/resources/conversations/items';
import type { ResponseOutputItem } from 'openai/resources/responses/responses';
import { newApprovalTurn, newTurn, type Turn } from './saved-chat';

type MessageItem = Extract<ConversationItem, { type: 'message' }>;

function messageText(item: MessageItem): string {
  return item.content
    .map((part) => ('text' in part && typeof part.text === 'string' ? part.text : 'refusal' in part ? part.refusal : ''))
    .join('\n');
}

/** An assistant message as the answer renders it: `output_text` parts (one added from code may hold `input_text`). */
function assistantOutput(item: MessageItem): ResponseOutputItem {
  const content = item.content.map((part) =>
    part.type === 'output_text' || part.type === 'refusal' ? part : { type: 'output_text' as const, text: 'text' in part ? String(part.text) : '', annotations: [] },
  );
  return { type: 'message', id: item.id, role: 'assistant', status: 'completed', content } as ResponseOutputItem;
}

/**
 * @param at when the chat was last used (ms): the time its read turns show, as the items
 *   carry none.
 */
export function turnsFromItems(items: readonly ConversationItem[], at: number): Turn[] {
  const turns: Turn[] = [];
  const requests = new Map<string, { server: string; tool: string }>();
  const open = (turn: Turn, itemId: string) => {
    turns.push({ ...turn, status: 'completed', finishedAt: at, startedAt: at, itemIds: [itemId] });
  };
  for (const item of items) {
    if (item.type === 'message' && (item.role === 'system' || item.role === 'developer')) continue;
    if (item.type === 'message' && item.role === 'user') {
      open(newTurn(messageText(item), '', at), item.id);
      continue;
    }
    if (item.type === 'mcp_approval_response') {
      const request = requests.get(item.approval_request_id) ?? { server: 'an MCP server', tool: 'a tool' };
      open(newApprovalTurn({ requestId: item.approval_request_id, approve: item.approve, ...request }, '', at), item.id ?? '');
      continue;
    }
    if (item.type === 'mcp_approval_request') requests.set(item.id, { server: item.server_label, tool: item.name });
    // Output before any user message (a conversation started from code): a turn with no message.
    if (turns.length === 0) open(newTurn('', '', at), '');
    const turn = turns.at(-1)!;
    const output = item.type === 'message' ? assistantOutput(item) : (item as unknown as ResponseOutputItem);
    turns[turns.length - 1] = { ...turn, output: [...turn.output, output], itemIds: [...(turn.itemIds ?? []), item.id ?? ''] };
  }
  return turns.map((turn) => ({ ...turn, itemIds: (turn.itemIds ?? []).filter((id) => id !== '') }));
}
