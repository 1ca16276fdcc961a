/**
 * MCP items and events, in OpenAI's order:
 * listing: `output_item.added` (`mcp_list_tools`) → `mcp_list_tools.in_progress` →
 * `.completed` | `.failed` → `output_item.done`;
 * a call: `output_item.added` (`mcp_call`) → `mcp_call.in_progress` →
 * `mcp_call_arguments.delta` → `.done` → `mcp_call.completed` | `.failed` → `output_item.done`;
 * a call that needs approval: `output_item.added` + `output_item.done` of an
 * `mcp_approval_request`, and the response ends there.
 *
 * A failure (server down, CORS, 401, tool error) fails its item, and the response goes on:
 * the model is told what happened, like for the other builtin tools.
 */
import type { ConversationItem } from '../../chat/chat-format';
import type { McpApprovalRequest, McpCall, McpListTools, McpToolCallError } from '../../protocol/output-items';
import { newId } from '../../shared/ids';
import { parseArgs } from '../call-view';
import type { McpServerPlan, McpToolEntry } from './mcp-servers';
import { mcpCallAsConversation } from './mcp-call-view';
import type { ItemWriter } from '../../ports/builtin-tool';
import type { McpFailure, McpPort, McpToolInfo } from '../../ports/tool-ports';

const NO_CLIENT: McpFailure = { kind: 'http', status: 0, message: 'MCP servers are not available in this runtime (the MCP client is turned off).' };

/** Lists the server's tools as an `mcp_list_tools` item; returns the ones the model may use (none on failure). */
export async function listMcpTools(items: ItemWriter, server: McpServerPlan, port: McpPort | undefined, signal: AbortSignal): Promise<McpToolInfo[]> {
  const item: McpListTools = { type: 'mcp_list_tools', id: newId('mcpl'), server_label: server.target.label, tools: [] };
  const index = items.begin(item);
  items.emit({ type: 'response.mcp_list_tools.in_progress', item_id: item.id, output_index: index });
  const outcome = port ? await port.listTools(server.target, signal) : { ok: false as const, error: NO_CLIENT };
  if (outcome.ok) {
    item.tools = outcome.value.filter((t) => server.allowed(t));
    items.emit({ type: 'response.mcp_list_tools.completed', item_id: item.id, output_index: index });
  } else {
    item.error = outcome.error.message;
    items.emit({ type: 'response.mcp_list_tools.failed', item_id: item.id, output_index: index });
  }
  items.complete(index, item);
  return item.tools;
}

export interface PendingMcpCall {
  entry: McpToolEntry;
  args: Record<string, unknown>;
  index: number;
  item: McpCall;
}

/** Adds the call's item as soon as the model has written it (or an approved request is carried out). */
export function beginMcpCall(items: ItemWriter, entry: McpToolEntry, argsJson: string, approvalRequestId: string | null): PendingMcpCall {
  const item: McpCall = {
    type: 'mcp_call',
    id: newId('mcp'),
    server_label: entry.server.target.label,
    name: entry.tool.name,
    arguments: '',
    status: 'in_progress',
    output: null,
    error: null,
    approval_request_id: approvalRequestId,
  };
  const index = items.begin(item);
  items.emit({ type: 'response.mcp_call.in_progress', item_id: item.id, output_index: index });
  items.emit({ type: 'response.mcp_call_arguments.delta', item_id: item.id, output_index: index, delta: argsJson });
  items.emit({ type: 'response.mcp_call_arguments.done', item_id: item.id, output_index: index, arguments: argsJson });
  item.arguments = argsJson;
  items.update(index, item);
  return { entry, args: parseArgs(argsJson), index, item };
}

/** A call that needs the user's approval: its request item; nothing is sent to the server. */
export function requestMcpApproval(items: ItemWriter, entry: McpToolEntry, argsJson: string): void {
  const item: McpApprovalRequest = { type: 'mcp_approval_request', id: newId('mcpr'), server_label: entry.server.target.label, name: entry.tool.name, arguments: argsJson };
  const index = items.begin(item);
  items.complete(index, item);
}

/** Runs the call and finishes its item; never throws for a failed call (the model is told instead). */
export async function runMcpCall(call: PendingMcpCall, port: McpPort | undefined, items: ItemWriter, signal: AbortSignal): Promise<ConversationItem[]> {
  const { item, index, entry } = call;
  item.status = 'calling';
  items.update(index, item);
  const outcome = port ? await port.callTool(entry.server.target, entry.tool.name, call.args, signal) : { ok: false as const, error: NO_CLIENT };
  if (outcome.ok && !outcome.value.isError) {
    item.output = outcome.value.output;
    item.status = 'completed';
    items.emit({ type: 'response.mcp_call.completed', item_id: item.id, output_index: index });
  } else {
    item.error = outcome.ok ? { type: 'mcp_tool_execution_error', content: outcome.value.content } : callError(outcome.error);
    if (outcome.ok) item.output = outcome.value.output;
    item.status = 'failed';
    items.emit({ type: 'response.mcp_call.failed', item_id: item.id, output_index: index });
  }
  items.complete(index, item);
  return mcpCallAsConversation(item);
}

function callError(failure: McpFailure): McpToolCallError {
  return failure.kind === 'http'
    ? { type: 'http_error', code: failure.status, message: failure.message }
    : { type: 'mcp_protocol_error', code: failure.code, message: failure.message };
}
