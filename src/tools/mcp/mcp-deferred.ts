/**
 * Deferred MCP servers (`defer_loading: true`): listed as usual, but their tools are not
 * shown to the model until `tool_search` loads them. The server offers each listed tool to
 * the search as a candidate; a load is the server's entry, without secrets, with
 * `allowed_tools` naming what was loaded — a `tool_search_output` lists it, and from then on
 * (that item in the conversation) the tool is callable through the server's session.
 *
 * What the model is shown of a load is rebuilt from the stored items alone (the output's entry
 * and the server's `mcp_list_tools`), the same way in the round that loaded it and in every
 * later turn: the prompt's cached prefix stays valid.
 */
import type { ToolSpec } from '../../chat/chat-format';
import type { DeferredCandidate } from '../../ports/builtin-tool';
import type { McpToolInfo } from '../../ports/tool-ports';
import type { McpTool, Tool } from '../../protocol/create-request';
import type { StoredItem } from '../../protocol/output-items';
import { mcpFunctionSpec, mcpToolSpec, listedEarlier, type McpToolEntry } from './mcp-servers';

/** The entry a search lists for `tool` of `server`: what the request gave, less its secrets and transport-only fields. */
function loadEntry(server: McpTool, tool: McpToolInfo): Tool {
  const { authorization: _a, headers: _h, connector_id: _c, tunnel_id: _t, allowed_tools: _at, ...rest } = server;
  return { ...rest, defer_loading: true, allowed_tools: [tool.name] };
}

const words = (name: string) => name.replace(/[_-]+/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2');

/** A deferred server's listed tools as a search's candidates (`entries`: the request's `mcp` entries, by label). */
export function mcpCandidates(known: readonly McpToolEntry[], entries: ReadonlyMap<string, McpTool>): DeferredCandidate[] {
  return known.flatMap((entry): DeferredCandidate[] => {
    const server = entries.get(entry.server.target.label);
    if (!entry.server.deferred || !server) return [];
    const spec = mcpToolSpec(entry);
    const { tool } = entry;
    // The label reads as a group's name would: `github` finds every tool of that server.
    const text = `${words(server.server_label)} ${words(tool.name)} ${server.server_description ?? ''} ${tool.description ?? ''}`;
    return [{ key: spec.name, text, tool: loadEntry(server, tool), spec }];
  });
}

/** Whether `name` of the server `label` is among the loaded entries (`allowed_tools` absent: all of the server's). */
export function loadedByEntries(loaded: readonly Tool[]): (label: string, name: string) => boolean {
  const mcp = loaded.filter((t): t is McpTool => t.type === 'mcp');
  return (label, name) =>
    mcp.some((t) => t.server_label === label && (t.allowed_tools == null || (Array.isArray(t.allowed_tools) ? t.allowed_tools.includes(name) : (t.allowed_tools.tool_names ?? []).includes(name))));
}

/**
 * The functions a search's loaded entry shows the model, in its `allowed_tools` order, from
 * the server's latest successful listing among `items` before position `at` (-1: anywhere).
 * A tool the listing lacks is not shown.
 */
export function mcpLoadedSpecs(entry: McpTool, items: readonly StoredItem[], at: number): ToolSpec[] {
  const listing = listedEarlier(at < 0 ? items : items.slice(0, at), entry.server_label) ?? [];
  const names = Array.isArray(entry.allowed_tools) ? entry.allowed_tools : listing.filter((t) => loadedByEntries([entry])(entry.server_label, t.name)).map((t) => t.name);
  return names.flatMap((name) => {
    const tool = listing.find((t) => t.name === name);
    return tool ? [mcpFunctionSpec(entry.server_label, entry.server_description, tool)] : [];
  });
}
