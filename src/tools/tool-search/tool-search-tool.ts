/**
 * `tool_search` as a plug-in: the model calls `tool_search({"query": …})` to load deferred
 * tools (`defer_loading: true`).
 * - Run here (`execution: "server"`, the default): the request's deferred functions are ranked
 *   by keyword (tool-ranking.ts), the best few loaded; a `tool_search_call` and a
 *   `tool_search_output` (the loaded tools) are written, and the model, shown the loaded
 *   functions at that point of the conversation, may call them in its next round.
 * - Run by the client (`execution: "client"`): the call ends the response (like an approval
 *   request); the client's `tool_search_output` (`call_id`, `tools`) in the next input loads them.
 * Loaded tools stay loaded wherever the output item is in the conversation (a chain, a
 * conversation, a client replaying items), and are never added to the prompt's leading tool
 * list: what a search loads is shown where it was loaded, so the prompt before it is unchanged.
 */
import type { z } from 'zod';
import type { ConversationItem, ToolSpec } from '../../chat/chat-format';
import type { BuiltinTool, DeferredCandidate, ToolCall, ToolEntry, TurnItems } from '../../ports/builtin-tool';
import type { Tool } from '../../protocol/create-request';
import type { OutputItem, StoredItem } from '../../protocol/output-items';
import {
  ToolSearchCallInput,
  ToolSearchOutputInput,
  ToolSearchTool,
  LoadableTool,
  type ToolSearchCall,
  type ToolSearchOutput,
} from '../../protocol/tool-search';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { newId } from '../../shared/ids';
import { parseArgs, str } from '../call-view';
import { mcpLoadedSpecs } from '../mcp';
import { deferredEntries, loadedKeys, loadedText, mergeLoaded, type DeferredEntry, type McpSpecs } from './deferred-catalog';

export const TOOL_SEARCH_NAME = 'tool_search';
/** How many tools one search loads at most: enough for a task, few enough to keep the prompt small. */
export const MAX_LOADED_PER_SEARCH = 5;

const QUERY_PARAMETERS = {
  type: 'object',
  properties: { query: { type: 'string', description: 'What the tool should do, in a few words (e.g. "weather forecast", "send an email").' } },
  required: ['query'],
};

// The server carries the tool's items as it carries any item, without reading their fields.
const asItem = (item: ToolSearchCall | ToolSearchOutput) => item as unknown as OutputItem;
const asStored = (item: ToolSearchCall | ToolSearchOutput) => item as unknown as StoredItem;

/** The function the model is told about: the server's own, or the client's description and parameters. */
function searchSpec(entry: ToolSearchTool, tools: readonly Tool[]): ToolSpec {
  if (entry.execution === 'client')
    return {
      name: TOOL_SEARCH_NAME,
      description: entry.description ?? 'Search for more tools by what they do; the best matches are loaded and can be called after.',
      parameters: entry.parameters ?? QUERY_PARAMETERS,
    };
  // Groups whose members are deferred are named (stable for the request: part of the cached prefix); a deferred MCP server is one.
  const groups = tools.flatMap((t) => {
    if (t.type === 'namespace' && t.tools.some((m) => m.defer_loading === true)) return [`${t.name} (${t.description})`];
    if (t.type === 'mcp' && t.defer_loading === true) return [`${t.server_label} (MCP server${t.server_description ? `: ${t.server_description}` : ''})`];
    return [];
  });
  return {
    name: TOOL_SEARCH_NAME,
    description: `Find and load more tools. Many tools are not listed here until you load them: search by what you need done. The best matches are loaded and you can call them right after.${groups.length ? ` Groups of tools to search: ${groups.join('; ')}.` : ''}`,
    parameters: QUERY_PARAMETERS,
  };
}

/** The tools loaded by the `tool_search_output` items among `items`, in order. */
function loadedBy(items: readonly StoredItem[]): LoadableTool[] {
  return items.flatMap((item) => ((item as { type: string }).type === 'tool_search_output' ? (item as unknown as ToolSearchOutput).tools : []));
}

function accept(input: { type: string }): StoredItem {
  if (input.type === 'tool_search_call') {
    const item = input as z.infer<typeof ToolSearchCallInput>;
    return asStored({
      type: 'tool_search_call',
      id: item.id ?? newId('tsc'),
      call_id: item.call_id ?? null,
      execution: item.execution ?? 'server',
      status: item.status ?? 'completed',
      arguments: item.arguments ?? {},
      ...(item.created_by ? { created_by: item.created_by } : {}),
    });
  }
  const item = input as z.infer<typeof ToolSearchOutputInput>;
  return asStored({
    type: 'tool_search_output',
    id: item.id ?? newId('tso'),
    call_id: item.call_id ?? null,
    // A client answering its own search sends its call's id; a replayed server output says `server`.
    execution: item.execution ?? (item.call_id ? 'client' : 'server'),
    status: item.status ?? 'completed',
    tools: item.tools,
    ...(item.created_by ? { created_by: item.created_by } : {}),
  });
}

/** The call as the function call the model made. */
function callView(item: ToolSearchCall): ConversationItem[] {
  const args = typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {});
  return [{ type: 'function_call', call_id: item.call_id ?? item.id, name: TOOL_SEARCH_NAME, arguments: args }];
}

/**
 * The call as the function call the model made; the output as what it was shown (the loaded
 * functions). A loaded MCP tool is shown from its server's listing among `items`, so the
 * output is shown after its call, as one: the round that ran the search shows both (`run`),
 * and there the output alone — its call not among `items` — shows nothing more.
 */
function view(stored: StoredItem, items: readonly StoredItem[]): ConversationItem[] {
  const item = stored as unknown as ToolSearchCall | ToolSearchOutput;
  if (item.type === 'tool_search_call') return callView(item);
  const callId = item.call_id ?? item.id;
  const calls = items as unknown as ReadonlyArray<{ type: string; call_id?: string | null; id?: string }>;
  if (!calls.some((i) => i.type === 'tool_search_call' && (i.call_id ?? i.id) === callId)) return [];
  const at = items.indexOf(stored);
  return [{ type: 'function_call_output', call_id: callId, output: loadedText(item.tools, (entry) => mcpLoadedSpecs(entry, items, at)) }];
}

/** One `tool_search` entry; run here it needs deferred tools to search. */
function check(entries: readonly ToolEntry[], _host: unknown, tools: readonly Tool[]): void {
  if (entries.length > 1) throw invalidRequest("Only one tool_search tool may be given in 'tools'.", `tools[${entries[1]!.index}]`, Codes.invalidValue);
  const { tool, index } = entries[0]!;
  const entry = ToolSearchTool.parse(tool);
  // A deferred MCP server counts before it is listed: its tools are known only when the response runs.
  const deferredServer = tools.some((t) => t.type === 'mcp' && t.defer_loading === true);
  if ((entry.execution ?? 'server') === 'server' && deferredEntries(tools).length === 0 && !deferredServer)
    throw invalidRequest(
      "The tool_search tool has no deferred tools to search: mark functions (a namespace's functions, or an mcp server) with defer_loading: true, or remove tool_search from 'tools'.",
      `tools[${index}]`,
      Codes.invalidValue,
    );
}

/** A `tool_search_output` naming a `call_id` must answer a `tool_search_call` of the conversation. */
function checkTurn(_entries: readonly ToolEntry[], turn: TurnItems): void {
  const all = [...turn.history, ...turn.input] as unknown as Array<{ type: string; call_id?: string | null }>;
  const calls = new Set(all.flatMap((i) => (i.type === 'tool_search_call' && i.call_id ? [i.call_id] : [])));
  (turn.input as unknown as Array<{ type: string; call_id?: string | null }>).forEach((item, i) => {
    if (item.type === 'tool_search_output' && item.call_id && !calls.has(item.call_id))
      throw invalidRequest(`No tool search call found for tool search output with call_id ${item.call_id}.`, `input[${i}].call_id`, Codes.invalidValue);
  });
}

export function toolSearchTool(): BuiltinTool {
  return {
    name: TOOL_SEARCH_NAME,
    toolTypes: ['tool_search'],
    itemTypes: ['tool_search_call', 'tool_search_output'],
    schemas: { entry: ToolSearchTool, items: [ToolSearchCallInput, ToolSearchOutputInput] },
    loadsDeferredTools: true,
    // A search the client runs ends the response, waiting for its `tool_search_output`.
    waits: (item) => (item as { type: string }).type === 'tool_search_call' && (item as unknown as ToolSearchCall).execution === 'client',
    functionNames: () => [TOOL_SEARCH_NAME],
    check: (entries, host, tools) => check(entries, host, tools),
    checkTurn,
    accept,
    view,
    session(entries, turn, _host, request) {
      const entry = ToolSearchTool.parse(entries[0]);
      const execution = entry.execution ?? 'server';
      const earlier = loadedBy([...turn.history, ...turn.input]);
      const loadedNow: LoadableTool[] = [];
      const loaded = () => mergeLoaded([...earlier, ...loadedNow]);
      const spec = searchSpec(entry, request.tools);
      return {
        functions: () => [spec],
        loaded,
        begin(_name, args, { items }): ToolCall | null {
          const parsed = parseArgs(args);
          const call: ToolSearchCall = { type: 'tool_search_call', id: newId('tsc'), call_id: newId('call'), execution, status: 'in_progress', arguments: parsed };
          if (execution === 'client') {
            const index = items.begin(asItem(call));
            items.complete(index, asItem({ ...call, status: 'completed' }));
            return null;
          }
          const index = items.begin(asItem(call));
          return {
            index,
            run: async () => {
              const { rankTools } = await import('./tool-ranking');
              // Other tools' deferred tools (an MCP server's) are known once listed: read now.
              const offered = (request.deferred?.() ?? []).flatMap(asEntry);
              const mcpSpecs = specsFrom(offered);
              const have = loadedKeys(loaded(), mcpSpecs);
              const candidates = [...deferredEntries(request.tools), ...offered].filter((e) => !have.has(e.key));
              const keys = rankTools(candidates, str(parsed.query), MAX_LOADED_PER_SEARCH);
              const tools = mergeLoaded(keys.map((key) => candidates.find((e) => e.key === key)!.tool));
              loadedNow.push(...tools);
              const done: ToolSearchCall = { ...call, status: 'completed' };
              items.complete(index, asItem(done));
              const output: ToolSearchOutput = { type: 'tool_search_output', id: newId('tso'), call_id: call.call_id, execution, status: 'completed', tools };
              items.complete(items.begin(asItem(output)), asItem(output));
              // The call and its output, as one (see `view`): the same text later turns rebuild from the stored items.
              return [...callView(done), { type: 'function_call_output', call_id: call.call_id!, output: loadedText(tools, mcpSpecs) }];
            },
          };
        },
      };
    },
  };
}

/** A builtin's deferred tool as the search ranks it (a loadable entry: an MCP server's). */
function asEntry(candidate: DeferredCandidate): DeferredEntry[] {
  const tool = LoadableTool.safeParse(candidate.tool);
  return tool.success ? [{ key: candidate.key, text: candidate.text, tool: tool.data, spec: candidate.spec }] : [];
}

/** A loaded MCP entry's functions, from the candidates its server offered (in its `allowed_tools` order). */
function specsFrom(offered: readonly DeferredEntry[]): McpSpecs {
  return (entry) => {
    const ofServer = offered.filter((e) => e.tool.type === 'mcp' && e.tool.server_label === entry.server_label);
    const nameOf = (e: DeferredEntry) => (e.tool.type === 'mcp' && Array.isArray(e.tool.allowed_tools) ? e.tool.allowed_tools[0] : undefined);
    const picked = Array.isArray(entry.allowed_tools) ? entry.allowed_tools.flatMap((name) => ofServer.filter((e) => nameOf(e) === name)) : ofServer;
    return picked.flatMap((e) => (e.spec ? [e.spec] : []));
  };
}
