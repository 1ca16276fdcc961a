/**
 * The one registry of builtin tools: the descriptors the composition root listed
 * (`ports/builtin-tool.ts`), looked up by the request tool types and item types they own.
 * It is all the server knows of tools: request checks, the run plan, the run, the include
 * filter and the conversation view ask it, never a tool by name.
 */
import type { ZodType } from 'zod';
import type { ConversationItem } from '../../chat/chat-format';
import type { BuiltinTool, ToolEcho, ToolEntry } from '../../ports/builtin-tool';
import { CLIENT_TOOL_TYPES, type Tool } from '../../protocol/create-request';
import type { OutputItem, StoredItem } from '../../protocol/output-items';
import type { ProtocolExtensions } from '../../protocol/protocol-extensions';

/**
 * An entry shown as it was sent: what a tool without an `echo` of its own gets. Only a tool
 * whose entry carries secrets (MCP's) has an echo type of its own, and it always has an echo.
 */
export const asSent: ToolEcho = (entry) => entry as ReturnType<ToolEcho>;

export class ToolRegistry {
  readonly #byToolType = new Map<string, BuiltinTool>();
  readonly #byItemType = new Map<string, BuiltinTool>();
  readonly #includes = new Map<string, (item: OutputItem) => OutputItem>();
  readonly #waiting = new Set<string>();
  /** Schemas of what plug-ins add to the wire (their entries and input items), for the request's parse. */
  readonly extensions: ProtocolExtensions;

  constructor(readonly tools: readonly BuiltinTool[]) {
    const entrySchemas = new Map<string, ZodType>();
    const itemSchemas: ZodType[] = [];
    for (const tool of tools) {
      for (const type of tool.toolTypes) {
        if (this.#byToolType.has(type) || CLIENT_TOOL_TYPES.has(type)) throw new Error(`Two tools serve the tool type '${type}' (${tool.name}).`);
        this.#byToolType.set(type, tool);
        if (tool.schemas?.entry) entrySchemas.set(type, tool.schemas.entry);
      }
      for (const type of tool.itemTypes) {
        if (this.#byItemType.has(type)) throw new Error(`Two tools own the item type '${type}' (${tool.name}).`);
        this.#byItemType.set(type, tool);
      }
      itemSchemas.push(...(tool.schemas?.items ?? []));
      for (const [value, hide] of Object.entries(tool.includes ?? {})) this.#includes.set(value, hide);
      for (const type of tool.waitingItemTypes ?? []) this.#waiting.add(type);
    }
    this.extensions = { tools: [...new Set(entrySchemas.values())], items: itemSchemas };
  }

  /** The tool that serves a request's `tools[].type`, if any. */
  forToolType(type: string): BuiltinTool | undefined {
    return this.#byToolType.get(type);
  }

  /** The tool whose item this is; undefined for the items of messages, functions and client-run tools. */
  ownerOf(item: { type: string }): BuiltinTool | undefined {
    return this.#byItemType.get(item.type);
  }

  /** The request's builtin entries, grouped by the tool that serves them (client tools are not here). */
  entries(tools: readonly Tool[]): Map<BuiltinTool, ToolEntry[]> {
    const grouped = new Map<BuiltinTool, ToolEntry[]>();
    tools.forEach((tool, index) => {
      const owner = this.#byToolType.get(tool.type);
      if (owner) grouped.set(owner, [...(grouped.get(owner) ?? []), { tool, index }]);
    });
    return grouped;
  }

  /** Whether one of the builtin tools loads deferred tools (`BuiltinTool.loadsDeferredTools`) and serves `type`. */
  loadsDeferred(type: string): boolean {
    return this.#byToolType.get(type)?.loadsDeferredTools === true;
  }

  /** Whether two `tools[].type` values name the same builtin tool (a dated name and its plain one). */
  readonly sameTool = (a: string, b: string): boolean => a === b || (this.#byToolType.get(a) !== undefined && this.#byToolType.get(a) === this.#byToolType.get(b));

  /** A request's tool entry as the response shows it (its tool's `echo`; as sent otherwise). */
  readonly echo: ToolEcho = (entry) => this.#byToolType.get(entry.type)?.echo?.(entry) ?? asSent(entry);

  /** The `include` values tools own. */
  get includeValues(): ReadonlySet<string> {
    return new Set(this.#includes.keys());
  }

  /** An item as a client sees it: what an `include` value it did not ask for hides is hidden. */
  present<T extends StoredItem>(item: T, include: ReadonlySet<string>): T {
    let shown: OutputItem = item as OutputItem;
    for (const [value, hide] of this.#includes) if (!include.has(value) && this.ownerOf(item)?.includes?.[value] === hide) shown = hide(shown);
    return shown as T;
  }

  /** What the model sees of a tool's stored item (null: not a tool's item). */
  view(item: StoredItem, items: readonly StoredItem[]): ConversationItem[] | null {
    return this.ownerOf(item)?.view(item, items) ?? null;
  }

  /** Whether the item ends its response waiting for the client (an approval request). */
  waits(item: { type: string }): boolean {
    return this.#waiting.has(item.type) || (this.ownerOf(item)?.waits?.(item as OutputItem) ?? false);
  }
}
