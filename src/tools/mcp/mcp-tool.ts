/**
 * `mcp` as a builtin tool: remote MCP servers named by the request, the runtime as their
 * client. Before the first round the servers the chain has not listed are listed
 * (`mcp_list_tools`) and the calls the user approved in this request's input are made; the
 * model sees each server tool as the function `<server_label>__<tool>`; a call needing
 * approval ends the response with an `mcp_approval_request` (see mcp-calls.ts for the items
 * and events).
 */
import type { z } from 'zod';
import type { ConversationItem } from '../../chat/chat-format';
import type { BuiltinTool, ToolCall, ToolEntry, TurnItems } from '../../ports/builtin-tool';
import type { McpPort, McpToolInfo } from '../../ports/tool-ports';
import type { BuiltinToolEntry, Tool } from '../../protocol/create-request';
import type { StoredItem } from '../../protocol/output-items';
import type { EchoedToolEntry } from '../../protocol/response-object';
import type { McpApprovalRequestInput, McpApprovalResponseInput, McpCallInput, McpListToolsInput } from '../../protocol/tool-input-items';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { newId } from '../../shared/ids';
import { approvalAsConversation, approvalRequests, mcpCallAsConversation, mcpFunctionName } from './mcp-call-view';
import { beginMcpCall, listMcpTools, requestMcpApproval, runMcpCall } from './mcp-calls';
import { listedEarlier, mcpServersOf, mcpToolSpec, type McpApproval, type McpServerPlan, type McpToolEntry } from './mcp-servers';
import { loadedByEntries, mcpCandidates } from './mcp-deferred';

/**
 * Each `mcp_approval_response` of the input answers an `mcp_approval_request` of the chain,
 * once, for a server this request still names (its URL and credentials come with the request).
 */
function approvalsOf(entries: readonly Tool[], turn: TurnItems): McpApproval[] {
  const { history, input } = turn;
  const requests = approvalRequests([...history, ...input]);
  const answered = new Set(history.flatMap((i) => (i.type === 'mcp_approval_response' ? [i.approval_request_id] : [])));
  const labels = new Set(entries.flatMap((t) => (t.type === 'mcp' ? [t.server_label] : [])));
  const approvals: McpApproval[] = [];
  input.forEach((item, i) => {
    if (item.type !== 'mcp_approval_response') return;
    const found = requests.get(item.approval_request_id);
    if (!found)
      throw invalidRequest(
        `No MCP approval request found with id '${item.approval_request_id}'. Answer a request of the previous response, with previous_response_id set.`,
        `input[${i}].approval_request_id`,
        Codes.invalidValue,
      );
    if (answered.has(found.id)) throw invalidRequest(`The MCP approval request '${found.id}' was already answered.`, `input[${i}].approval_request_id`, Codes.invalidValue);
    answered.add(found.id);
    if (item.approve && !labels.has(found.server_label))
      throw invalidRequest(
        `The approved call goes to the MCP server '${found.server_label}', which is not in 'tools'. Send the same mcp tool (server_url, authorization) again with the approval.`,
        'tools',
        Codes.invalidValue,
      );
    approvals.push({ request: found, approve: item.approve });
  });
  return approvals;
}

/** Reads one of the MCP items back as input, as stored (nothing is sent to a server). */
function accept(input: { type: string }): StoredItem {
  switch (input.type) {
    case 'mcp_call': {
      const item = input as z.infer<typeof McpCallInput>;
      return {
        type: 'mcp_call',
        id: item.id,
        server_label: item.server_label,
        name: item.name,
        arguments: item.arguments,
        status: item.status ?? 'completed',
        output: item.output ?? null,
        error: item.error ?? null,
        approval_request_id: item.approval_request_id ?? null,
      };
    }
    case 'mcp_list_tools': {
      const item = input as z.infer<typeof McpListToolsInput>;
      return { type: 'mcp_list_tools', id: item.id, server_label: item.server_label, tools: item.tools, ...(item.error ? { error: item.error } : {}) };
    }
    case 'mcp_approval_request': {
      const item = input as z.infer<typeof McpApprovalRequestInput>;
      return { type: 'mcp_approval_request', id: item.id, server_label: item.server_label, name: item.name, arguments: item.arguments };
    }
    default: {
      const item = input as z.infer<typeof McpApprovalResponseInput>;
      return { type: 'mcp_approval_response', id: item.id ?? newId('mcpa'), approval_request_id: item.approval_request_id, approve: item.approve, reason: item.reason ?? null };
    }
  }
}

function view(item: StoredItem, items: readonly StoredItem[]): ConversationItem[] {
  if (item.type === 'mcp_call') return mcpCallAsConversation(item);
  if (item.type === 'mcp_approval_response') return approvalAsConversation(approvalRequests(items).get(item.approval_request_id), item.approve, item.reason);
  // A tool list is told to the model as its tools; a request waits for its answer (above).
  return [];
}

/** The `mcp` tool as echoed: without `authorization` and `headers` (and without the fields that are always absent). */
function redact(tool: BuiltinToolEntry): EchoedToolEntry {
  if (tool.type !== 'mcp') return tool;
  const { authorization: _a, headers: _h, connector_id: _c, tunnel_id: _t, defer_loading: _d, ...rest } = tool;
  return { ...rest, headers: null };
}

/** `port`: the MCP client this runtime has (none: a request with the tool is a 400). */
export function mcpTool(port: McpPort | undefined): BuiltinTool {
  return {
    name: 'mcp',
    toolTypes: ['mcp'],
    itemTypes: ['mcp_list_tools', 'mcp_call', 'mcp_approval_request', 'mcp_approval_response'],
    waitingItemTypes: ['mcp_approval_request'],
    // Secrets are for this request's calls only: the echoed (and stored) tool never carries them.
    echo: redact,
    check(entries: readonly ToolEntry[]) {
      if (!port) throw invalidRequest('The mcp tool is not available in this runtime (its MCP client is turned off).', `tools[${entries[0]!.index}].type`, Codes.unsupportedTool);
      const seen = new Set<string>();
      for (const { tool, index } of entries) {
        if (tool.type !== 'mcp') continue;
        if (seen.has(tool.server_label)) throw invalidRequest(`Duplicate server_label '${tool.server_label}': each MCP server needs its own label.`, `tools[${index}].server_label`, Codes.invalidValue);
        seen.add(tool.server_label);
      }
    },
    checkTurn: (entries, turn) => void approvalsOf(entries.map((e) => e.tool), turn),
    accept,
    view,
    session(entries, turn, _host, request) {
      // A server listed earlier in the chain is not asked again; its tools pass today's allowed_tools.
      const known: McpToolEntry[] = [];
      const toList: McpServerPlan[] = [];
      const listed = [...turn.history, ...turn.input];
      for (const server of mcpServersOf(entries)) {
        const earlier = listedEarlier(listed, server.target.label);
        if (earlier) known.push(...earlier.filter((t) => server.allowed(t)).map((tool) => ({ server, tool })));
        else toList.push(server);
      }
      // A deferred server's tool is callable once a search loaded it (earlier in the chain, or during this response).
      const isLoaded = () => loadedByEntries(request.loaded?.() ?? []);
      const loadedDeferred = () => {
        const loaded = isLoaded();
        return known.filter((e) => e.server.deferred && loaded(e.server.target.label, e.tool.name));
      };
      const callable = () => [...known.filter((e) => !e.server.deferred), ...loadedDeferred()];
      const byName = () => new Map(callable().map((e) => [mcpToolSpec(e).name, e] as const));
      const approvals = approvalsOf(entries, turn);
      const byLabel = new Map(entries.flatMap((t) => (t.type === 'mcp' ? [[t.server_label, t] as const] : [])));
      return {
        functions: () => known.filter((e) => !e.server.deferred).map(mcpToolSpec),
        deferred: () => mcpCandidates(known, byLabel),
        loadedFunctions: () => loadedDeferred().map(mcpToolSpec),
        async prepare({ items, signal }) {
          for (const server of toList) {
            const tools: McpToolInfo[] = await listMcpTools(items, server, port, signal);
            known.push(...tools.map((tool) => ({ server, tool })));
            if (signal.aborted) return { conversation: [], calls: 0 };
          }
          const conversation: ConversationItem[] = [];
          let calls = 0;
          const entriesByName = byName();
          for (const { request, approve } of approvals) {
            if (!approve) continue;
            const entry = entriesByName.get(mcpFunctionName(request.server_label, request.name));
            // The request's allowed_tools bound what runs, approved or not.
            if (!entry) {
              conversation.push(...approvalAsConversation(request, false, `the tool '${request.name}' is not among this request's allowed tools of '${request.server_label}'`));
              continue;
            }
            const call = beginMcpCall(items, entry, request.arguments, request.id);
            conversation.push(...(await runMcpCall(call, port, items, signal)));
            calls++;
            if (signal.aborted) break;
          }
          return { conversation, calls };
        },
        begin(name, args, { items, signal }): ToolCall | null {
          const entry = byName().get(name);
          if (!entry) return null;
          if (entry.server.needsApproval(entry.tool)) {
            requestMcpApproval(items, entry, args);
            return null;
          }
          const call = beginMcpCall(items, entry, args, null);
          return { index: call.index, run: () => runMcpCall(call, port, items, signal) };
        },
      };
    },
  };
}
