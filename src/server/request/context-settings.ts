/**
 * What `additional_tools` and `configuration_update` items (protocol/context-items.ts) change:
 * from where an item stands — in this request's input, or anywhere earlier in its chain or
 * conversation — its tools are callable and its settings apply, until a later update replaces
 * a setting. The request's own `tools`, `reasoning` and `text` are the base; the items are
 * applied over it in order. The model is never shown the items themselves: their tools join
 * the tool list, their settings the generation (to-conversation.ts shows them as nothing).
 *
 * A request whose input ends with `compaction_trigger` is a compaction: see triggered-compaction.ts.
 */
import type { CreateResponseRequest, Tool } from '../../protocol/create-request';
import type { AdditionalToolsItem, ConfigurationUpdateItem } from '../../protocol/context-items';
import type { InputItem } from '../../protocol/input-item-schemas';
import type { StoredItem } from '../../protocol/output-items';
import type { EchoedToolEntry } from '../../protocol/response-object';
import { newId } from '../../shared/ids';
import type { ToolRegistry } from '../state/tool-registry';

type AdditionalToolsInput = Extract<InputItem, { type: 'additional_tools' }>;
type ConfigurationUpdateInput = Extract<InputItem, { type: 'configuration_update' }>;

/** A function entry as a response echoes it; any other through its tool's echo (an MCP server's secrets dropped). */
export function echoedTool(tool: Tool, tools: ToolRegistry): AdditionalToolsItem['tools'][number] {
  if (tool.type === 'function') return { ...tool, description: tool.description ?? null, parameters: tool.parameters ?? null, strict: tool.strict ?? true };
  return tools.echo(tool as Exclude<Tool, { type: 'function' }>) as EchoedToolEntry;
}

/** An `additional_tools` input item as it is stored: an id, and its tools as a response echoes them. */
export function storedAdditionalTools(item: AdditionalToolsInput, tools: ToolRegistry): AdditionalToolsItem {
  return { type: 'additional_tools', id: item.id ?? newId('at'), role: 'developer', tools: (item.tools as unknown as Tool[]).map((t) => echoedTool(t, tools)) };
}

/** A `configuration_update` input item as it is stored. */
export function storedConfigurationUpdate(item: ConfigurationUpdateInput): ConfigurationUpdateItem {
  return {
    type: 'configuration_update',
    id: item.id ?? newId('cu'),
    ...(item.reasoning ? { reasoning: { effort: item.reasoning.effort ?? null } } : {}),
    ...(item.text ? { text: item.text } : {}),
  };
}

/** Where a tool of the effective list came from: the parameter a 400 about it names. */
export type ToolOrigin = (index: number) => string;

export interface ContextSettings {
  /** The request with the items applied (unchanged when the context holds none). */
  request: CreateResponseRequest;
  /** Whether any item changed it. */
  changed: boolean;
  /** The parameter each of `request.tools` came from. */
  toolParam: ToolOrigin;
}

/**
 * `request` with the context's items applied. `history`: the chain's or conversation's stored
 * items (their tools as stored: echoed); `input`: this request's own input as sent (its tools
 * as sent, so an MCP server's credentials reach this request's calls). Tools declared twice
 * alike (compared as stored: a client that later puts a declared function in `tools` too)
 * count once.
 */
export function applyContextItems(
  request: CreateResponseRequest,
  history: readonly StoredItem[],
  input: readonly StoredItem[],
  historyParam: string,
  registry: ToolRegistry,
): ContextSettings {
  const base = request.tools ?? [];
  const tools: Tool[] = [...base];
  const origins: string[] = base.map((_, i) => `tools[${i}]`);
  const keyOf = (tool: Tool) => JSON.stringify(echoedTool(tool, registry));
  const seen = new Set(base.map(keyOf));
  let reasoning = request.reasoning;
  let text = request.text;
  let changed = false;
  const add = (tool: Tool, param: string) => {
    const key = keyOf(tool);
    if (seen.has(key)) return;
    seen.add(key);
    tools.push(tool);
    origins.push(param);
  };
  const update = (item: ConfigurationUpdateItem) => {
    if (item.reasoning) reasoning = { ...(reasoning ?? {}), effort: item.reasoning.effort ?? null };
    if (item.text) text = { ...(text ?? {}), format: item.text.format };
    changed = true;
  };
  for (const item of history) {
    if (item.type === 'additional_tools') {
      item.tools.forEach((tool) => add(tool as unknown as Tool, historyParam));
      changed = true;
    } else if (item.type === 'configuration_update') update(item);
  }
  // Stored input is the sent input item for item (a compaction_trigger, dropped, can only be last).
  const sent = typeof request.input === 'string' ? [] : (request.input ?? []);
  input.forEach((item, i) => {
    if (item.type === 'additional_tools') {
      const raw = sent[i];
      // As sent when it was sent (an item_reference resolves to the stored, echoed form).
      const declared = raw?.type === 'additional_tools' ? (raw.tools as unknown as Tool[]) : (item.tools as unknown as Tool[]);
      declared.forEach((tool, j) => add(tool, raw?.type === 'additional_tools' ? `input[${i}].tools[${j}]` : `input[${i}]`));
      changed = true;
    } else if (item.type === 'configuration_update') update(item);
  });
  if (!changed) return { request, changed, toolParam: (i) => `tools[${i}]` };
  return {
    request: { ...request, ...(tools.length ? { tools } : {}), ...(reasoning !== undefined ? { reasoning } : {}), ...(text !== undefined ? { text } : {}) },
    changed,
    toolParam: (i) => origins[i] ?? `tools[${i}]`,
  };
}
