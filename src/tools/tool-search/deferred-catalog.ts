/**
 * The request's deferred tools as a search sees them — one entry per function the model
 * would call (a namespace's member is its own entry) — and how loaded tools are shown to the
 * model: as the functions it calls them by, written where the search loaded them.
 *
 * Model-side names follow the client tools' view (`server/model-view/client-tools.ts`): a
 * namespace's member is `<namespace>__<name>`; a custom tool takes one string, `input`.
 */
import type { ToolSpec } from '../../chat/chat-format';
import { toolDefinition } from '../../chat/tool-definition';
import type { Tool } from '../../protocol/create-request';
import type { LoadableTool, LoadedMcpTool } from '../../protocol/tool-search';

/** One deferred function: how it is found (name, description) and the tool entry that loads it. */
export interface DeferredEntry {
  /** The model-side name (`ns__fn` for a namespace's member): unique in a request. */
  key: string;
  /** The words a search matches: its name (split at `_`, `-`, case changes), its namespace's, the descriptions. */
  text: string;
  /** The entry as a `tool_search_output` lists it (a namespace with this one member; an MCP server allowing this one tool). */
  tool: LoadableTool;
  /** How the model is shown it, for a builtin's deferred tool (an MCP server's, from its listing). */
  spec?: ToolSpec;
}

/** The functions a loaded MCP entry shows, which only its server's listing knows. */
export type McpSpecs = (entry: LoadedMcpTool) => ToolSpec[];

const deferred = (tool: { defer_loading?: boolean | undefined }) => tool.defer_loading === true;
const words = (name: string) => name.replace(/[_-]+/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2');

/** Every deferred function of the request's tools, in order. */
export function deferredEntries(tools: readonly Tool[]): DeferredEntry[] {
  return tools.flatMap((tool): DeferredEntry[] => {
    if (tool.type === 'function' || tool.type === 'custom') {
      if (!deferred(tool)) return [];
      return [{ key: tool.name, text: `${words(tool.name)} ${tool.description ?? ''}`, tool }];
    }
    if (tool.type !== 'namespace') return [];
    return tool.tools.filter(deferred).map((member) => ({
      key: `${tool.name}__${member.name}`,
      text: `${words(tool.name)} ${words(member.name)} ${tool.description} ${member.description ?? ''}`,
      tool: { ...tool, tools: [member] },
    }));
  });
}

/** The model-side functions of loaded tools (a namespace's members, custom tools as functions of `input`). */
export function loadedSpecs(tools: readonly LoadableTool[], mcpSpecs: McpSpecs): ToolSpec[] {
  return tools.flatMap((tool): ToolSpec[] => {
    if (tool.type === 'function') return [{ name: tool.name, description: tool.description ?? null, parameters: tool.parameters ?? null }];
    if (tool.type === 'custom') return [customSpec(tool.name, tool.description)];
    if (tool.type === 'mcp') return mcpSpecs(tool);
    return tool.tools.map((member) => {
      const name = `${tool.name}__${member.name}`;
      const about = [tool.description, member.description].filter(Boolean).join(' ');
      return member.type === 'custom' ? customSpec(name, about) : { name, description: about, parameters: member.parameters ?? null };
    });
  });
}

function customSpec(name: string, about: string | null | undefined): ToolSpec {
  return { name, description: `${about ? `${about}\n\n` : ''}Free-form input: pass it whole as the string \`input\`.`, parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] } };
}

/** What the model is shown of a search's result: the loaded functions, in the same JSON its leading tool list uses. */
export function loadedText(tools: readonly LoadableTool[], mcpSpecs: McpSpecs): string {
  const specs = loadedSpecs(tools, mcpSpecs);
  if (specs.length === 0) return 'No tools matched. Try other words, or answer without a tool.';
  return `Loaded ${specs.length} tool${specs.length > 1 ? 's' : ''}; call ${specs.length > 1 ? 'them' : 'it'} like the others:\n${specs.map((s) => JSON.stringify(toolDefinition(s))).join('\n')}`;
}

/** Merges loaded entries so a namespace (an MCP server) appears once, with its loaded members (tools) in order. */
export function mergeLoaded(entries: readonly LoadableTool[]): LoadableTool[] {
  const merged: LoadableTool[] = [];
  for (const tool of entries) {
    if (tool.type === 'namespace') {
      const same = merged.find((t) => t.type === 'namespace' && t.name === tool.name);
      if (same?.type === 'namespace') same.tools = [...same.tools, ...tool.tools];
      else merged.push({ ...tool, tools: [...tool.tools] });
    } else if (tool.type === 'mcp' && Array.isArray(tool.allowed_tools)) {
      const same = merged.find((t) => t.type === 'mcp' && t.server_label === tool.server_label && Array.isArray(t.allowed_tools));
      if (same?.type === 'mcp' && Array.isArray(same.allowed_tools)) same.allowed_tools = [...same.allowed_tools, ...tool.allowed_tools];
      else merged.push({ ...tool, allowed_tools: [...tool.allowed_tools] });
    } else merged.push(tool);
  }
  return merged;
}

/** The model-side names loaded entries make callable, for what a search need not load again (MCP: `<label>__<tool>`, from their specs). */
export function loadedKeys(tools: readonly LoadableTool[], mcpSpecs: McpSpecs): Set<string> {
  return new Set(loadedSpecs(tools, mcpSpecs).map((s) => s.name));
}
