/**
 * A request's `mcp` tools as the run uses them: where each server is and with which
 * headers, which of its tools the model may see, which calls need the user's approval, and
 * the names the model knows the tools by. Decided once, from the validated request.
 */
import type { ToolSpec } from '../../chat/chat-format';
import type { McpTool, McpToolFilter, Tool } from '../../protocol/create-request';
import type { McpApprovalRequest, StoredItem } from '../../protocol/output-items';
import type { McpServerTarget, McpToolInfo } from '../../ports/tool-ports';
import { mcpFunctionName } from './mcp-call-view';

export interface McpServerPlan {
  target: McpServerTarget;
  description?: string;
  /** `defer_loading`: its tools are shown to the model only once a search loads them. */
  deferred: boolean;
  /** `allowed_tools`: whether the model may see (and call) this tool. */
  allowed(tool: McpToolInfo): boolean;
  /** `require_approval`: whether a call of this tool waits for the user. */
  needsApproval(tool: McpToolInfo): boolean;
}

/** A tool of an MCP server, under the function name the model calls it by. */
export interface McpToolEntry {
  server: McpServerPlan;
  tool: McpToolInfo;
}

/** An approval the client sent in this request's input, with the request it answers. */
export interface McpApproval {
  request: McpApprovalRequest;
  approve: boolean;
}

export function mcpToolSpec(entry: McpToolEntry): ToolSpec {
  return mcpFunctionSpec(entry.server.target.label, entry.server.description, entry.tool);
}

/**
 * The function a server's tool is shown as, from its label, its description and the tool as
 * listed: all a stored listing and a search's output hold, so a load's text reads the same
 * in every later turn (tools/tool-search).
 */
export function mcpFunctionSpec(label: string, serverDescription: string | undefined, tool: McpToolInfo): ToolSpec {
  const about = serverDescription ? ` (${serverDescription})` : '';
  const schema = typeof tool.input_schema === 'object' && tool.input_schema !== null ? (tool.input_schema as Record<string, unknown>) : { type: 'object' };
  return {
    name: mcpFunctionName(label, tool.name),
    description: `Tool '${tool.name}' of the MCP server '${label}'${about}.${tool.description ? ` ${tool.description}` : ''}`,
    parameters: schema,
  };
}

function readOnly(tool: McpToolInfo): boolean {
  const annotations = tool.annotations;
  return typeof annotations === 'object' && annotations !== null && (annotations as { readOnlyHint?: unknown }).readOnlyHint === true;
}

/** An empty filter matches every tool; each given field narrows it. */
function matches(filter: McpToolFilter, tool: McpToolInfo): boolean {
  if (filter.tool_names && !filter.tool_names.includes(tool.name)) return false;
  if (filter.read_only !== undefined && readOnly(tool) !== filter.read_only) return false;
  return true;
}

export function mcpServerPlan(tool: McpTool): McpServerPlan {
  const headers: Record<string, string> = { ...(tool.headers ?? {}) };
  if (tool.authorization) headers.Authorization = `Bearer ${tool.authorization}`;
  const allowedTools = tool.allowed_tools;
  const approval = tool.require_approval ?? 'always';
  return {
    target: { label: tool.server_label, url: tool.server_url, headers },
    ...(tool.server_description ? { description: tool.server_description } : {}),
    deferred: tool.defer_loading === true,
    allowed: (t) => (allowedTools == null ? true : Array.isArray(allowedTools) ? allowedTools.includes(t.name) : matches(allowedTools, t)),
    needsApproval: (t) => {
      if (approval === 'always') return true;
      if (approval === 'never') return false;
      if (approval.never && matches(approval.never, t)) return false;
      if (approval.always && matches(approval.always, t)) return true;
      // A tool no filter names waits for approval: the safe default, and OpenAI's.
      return true;
    },
  };
}

export function mcpServersOf(tools: readonly Tool[]): McpServerPlan[] {
  return tools.flatMap((t) => (t.type === 'mcp' ? [mcpServerPlan(t)] : []));
}

/**
 * The tools a server listed earlier in the chain (its latest successful `mcp_list_tools`),
 * or null when it has to be asked: like OpenAI, a conversation lists a server once.
 */
export function listedEarlier(history: readonly StoredItem[], label: string): McpToolInfo[] | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i]!;
    if (item.type === 'mcp_list_tools' && item.server_label === label && !item.error) return item.tools;
  }
  return null;
}
