/**
 * How MCP items look to the model: a call of `<server_label>__<tool>` (the function name it
 * was offered the tool under) and what it was shown, a denied approval as a call that was
 * not made. The same rendering serves the round that made the call and every later turn.
 */
import type { ConversationItem } from '../../chat/chat-format';
import type { McpApprovalRequest, McpCall, McpToolCallError, StoredItem } from '../../protocol/output-items';

/**
 * The function name of a server's tool: `<server_label>__<tool>`. Prefixing keeps two
 * servers' tools (and the request's own functions) apart; labels cannot contain `__`
 * ambiguity that matters, since the pair is looked up whole.
 */
export function mcpFunctionName(label: string, tool: string): string {
  return `${label}__${tool}`;
}

function errorText(error: McpToolCallError, output: string | null): string {
  if (error.type === 'mcp_tool_execution_error') return `The tool reported an error: ${output ?? ''}`.trim();
  return `The call failed: ${error.message}`;
}

function asCall(callId: string, label: string, name: string, args: string, shown: string): ConversationItem[] {
  return [
    { type: 'function_call', call_id: callId, name: mcpFunctionName(label, name), arguments: args },
    { type: 'function_call_output', call_id: callId, output: shown },
  ];
}

/** A stored `mcp_call` as the call the model made and what it was shown (also for later turns). */
export function mcpCallAsConversation(item: McpCall): ConversationItem[] {
  const shown = item.error ? errorText(item.error, item.output) : (item.output ?? '');
  return asCall(item.id, item.server_label, item.name, item.arguments, shown || '(no output)');
}

/**
 * An approval answer as the model sees it. An approved call shows up as its `mcp_call`
 * (made by the response that received the approval), so only a denial is written here.
 */
export function approvalAsConversation(request: McpApprovalRequest | undefined, approve: boolean, reason: string | null): ConversationItem[] {
  if (!request || approve) return [];
  const why = reason ? ` (${reason})` : '';
  return asCall(request.id, request.server_label, request.name, request.arguments, `The user denied this call${why}; it was not made. Do not retry it; answer without it.`);
}

/** The approval requests of a conversation, by id. */
export function approvalRequests(items: readonly StoredItem[]): Map<string, McpApprovalRequest> {
  return new Map(items.flatMap((i) => (i.type === 'mcp_approval_request' ? [[i.id, i] as const] : [])));
}
