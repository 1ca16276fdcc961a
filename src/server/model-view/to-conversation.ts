/**
 * What the model sees of stored items: each item flattened to text for the chat format, in
 * order — a builtin tool's items as its tool shows them (the function calls the model made
 * and the output it was shown). One home for every stage that shows items to a model: a
 * request's history, the next round of a run, compaction.
 */
import type { ConversationItem } from '../../chat/chat-format';
import type { ToolRegistry } from '../state/tool-registry';
import type { StoredItem } from '../../protocol/output-items';
import { clientCallAsConversation, clientOutputAsConversation } from './client-call-view';
import { namespacedName } from './client-tools';

function partsText(parts: ReadonlyArray<{ type: string; text?: string }>): string {
  return parts
    .filter((p) => typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n');
}

/**
 * The images among content parts (a request to a local model that cannot see them was refused
 * earlier: image-inputs.ts; an upstream is sent them). Only `data:` URLs: the request stage
 * turned every image a model is shown into one (image-urls.ts), and an engine handed any other
 * URL would fetch it itself, unchecked — so one that reaches here unresolved is left out.
 */
function imagesOf(parts: ReadonlyArray<{ type: string; image_url?: string | null }>): { images?: string[] } {
  const images = parts.flatMap((p) => (p.type === 'input_image' && p.image_url && /^data:/i.test(p.image_url) ? [p.image_url] : []));
  return images.length ? { images } : {};
}

/** Stored items as the chat format reads them: text, and the images of messages and tool outputs. */
export function toConversation(items: readonly StoredItem[], tools: ToolRegistry): ConversationItem[] {
  const byProgram = programCallIds(items);
  return items.flatMap((item): ConversationItem | ConversationItem[] => {
    const shown = tools.view(item, items);
    if (shown) return shown;
    // A program's calls and their outputs are the program's business: the model sees the program and its result (its tool's view).
    if ((item.type === 'function_call' || item.type === 'function_call_output') && (item.caller?.type === 'program' || byProgram.has(item.call_id))) return [];
    switch (item.type) {
      case 'message':
        return {
          type: 'message',
          role: item.role,
          text: item.content.map((c) => (c.type === 'refusal' ? c.refusal : 'text' in c ? c.text : '')).filter(Boolean).join('\n'),
          ...imagesOf(item.content),
        };
      case 'function_call':
        // A namespace's function was shown to the model as `<namespace>__<name>`.
        return { type: 'function_call', call_id: item.call_id, name: item.namespace ? namespacedName(item.namespace, item.name) : item.name, arguments: item.arguments };
      case 'function_call_output':
        return {
          type: 'function_call_output',
          call_id: item.call_id,
          output: typeof item.output === 'string' ? item.output : partsText(item.output),
          ...(typeof item.output === 'string' ? {} : imagesOf(item.output)),
        };
      // The calls the client runs, and what it sent back, as the function calls the model made.
      case 'custom_tool_call':
      case 'shell_call':
      case 'local_shell_call':
      case 'apply_patch_call':
      case 'computer_call':
        return clientCallAsConversation(item);
      case 'custom_tool_call_output':
      case 'shell_call_output':
      case 'local_shell_call_output':
      case 'apply_patch_call_output':
      case 'computer_call_output':
        return {
          ...clientOutputAsConversation(item, (output) => (typeof output === 'string' ? output : partsText(output))),
          ...(item.type === 'custom_tool_call_output' && typeof item.output !== 'string' ? imagesOf(item.output) : {}),
        } as ConversationItem;
      case 'reasoning':
        return { type: 'reasoning', text: item.content.length ? partsText(item.content) : partsText(item.summary) };
      // Shown as its summary, in its place, by compaction-window.ts.
      case 'compaction':
        return [];
      // Their effect is shown instead: tools in the tool list, settings in the generation (request/context-settings.ts).
      case 'additional_tools':
      case 'configuration_update':
        return [];
    }
    // A builtin tool's item whose tool this runtime does not have: history it cannot show.
    return [];
  });
}


/** The call ids of function calls a program made (programmatic tool calling). */
function programCallIds(items: readonly StoredItem[]): ReadonlySet<string> {
  return new Set(items.flatMap((i) => (i.type === 'function_call' && i.caller?.type === 'program' ? [i.call_id] : [])));
}
