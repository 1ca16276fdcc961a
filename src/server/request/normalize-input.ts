/**
 * Request input → stored items: ids assigned, string content normalized to parts,
 * `item_reference`s resolved. What is stored is what `input_items` lists later.
 */
import type { InputItem } from '../../protocol/input-item-schemas';
import type { StoredItem } from '../../protocol/output-items';
import { invalidRequest, notFound } from '../../shared/api-error';
import { newId } from '../../shared/ids';
import { Codes } from '../../shared/error-codes';
import type { SealedReasoning } from '../sealing/encrypted-reasoning';
import { normalizeClientItem, toolOutputParts } from './normalize-client-items';
import { inputFile } from './input-file-part';
import type { ToolRegistry } from '../state/tool-registry';
import { storedAdditionalTools, storedConfigurationUpdate } from './context-settings';

export type FindItem = (id: string) => Promise<StoredItem | undefined>;
/** Opens a reasoning item's `encrypted_content` (see encrypted-reasoning.ts); rejects with a 400 naming `param`. */
export type OpenSealed = (id: string, sealed: string, param: string) => Promise<SealedReasoning>;

/** Checks a compaction item's `encrypted_content` opens (see compaction-sealer.ts); rejects with a 400 naming `param`. */
export type CheckCompaction = (sealed: string, param: string) => Promise<unknown>;

/** What reading input needs besides the items: where references resolve, the tools that read their own items back, the sealers. */
export interface InputReader {
  findItem: FindItem;
  tools: ToolRegistry;
  openSealed?: OpenSealed;
  checkCompaction?: CheckCompaction;
}

export async function normalizeInput(input: string | InputItem[] | undefined, reader: InputReader): Promise<StoredItem[]> {
  if (input === undefined) return [];
  if (typeof input === 'string')
    return [{ type: 'message', id: newId('msg'), role: 'user', status: 'completed', content: [{ type: 'input_text', text: input }] }];
  const out: StoredItem[] = [];
  // A compaction_trigger (last, checked by the parse) is not stored: the compaction it makes is (triggered-compaction.ts).
  for (const [i, item] of input.entries()) if (item.type !== 'compaction_trigger') out.push(await normalizeItem(item, i, reader));
  return out;
}

async function normalizeItem(item: InputItem, i: number, { findItem, tools, openSealed, checkCompaction }: InputReader): Promise<StoredItem> {
  // A builtin tool's item (ours, replayed by a client that keeps its history) is read back by its tool.
  const owner = tools.ownerOf(item);
  if (owner) return owner.accept(item, `input[${i}]`);
  switch (item.type) {
    case 'message': {
      const id = item.id ?? newId('msg');
      const parts = typeof item.content === 'string' ? [{ type: 'input_text' as const, text: item.content }] : item.content;
      if (item.role === 'assistant') {
        const content = parts.map((part, j) => {
          if (part.type === 'input_text' || part.type === 'output_text') return { type: 'output_text' as const, text: part.text, annotations: [] };
          if (part.type === 'refusal') return part;
          throw invalidRequest(`Invalid content part in an assistant message: '${part.type}'. Use 'output_text' or 'refusal'.`, `input[${i}].content[${j}].type`, Codes.invalidValue);
        });
        // A phase (`commentary`, `final_answer`) is kept and returned as the client sent it.
        return { type: 'message', id, role: 'assistant', status: 'completed', content, ...(item.phase ? { phase: item.phase } : {}) };
      }
      const content = parts.map((part, j) => {
        if (part.type === 'input_text') return part;
        if (part.type === 'input_image') return { type: 'input_image' as const, image_url: part.image_url ?? null, file_id: part.file_id ?? null, detail: part.detail };
        if (part.type === 'input_file') return inputFile(part, `input[${i}].content[${j}]`);
        throw invalidRequest(
          `Invalid content part in a ${item.role} message: '${part.type}'. Use 'input_text', 'input_image' or 'input_file'.`,
          `input[${i}].content[${j}].type`,
          Codes.invalidValue,
        );
      });
      return { type: 'message', id, role: item.role, status: 'completed', content };
    }
    case 'function_call':
      return {
        type: 'function_call',
        id: item.id ?? newId('fc'),
        call_id: item.call_id,
        name: item.name,
        arguments: item.arguments,
        ...(item.namespace ? { namespace: item.namespace } : {}),
        // A program's call keeps its caller: the model is not shown it as its own (to-conversation.ts).
        ...(item.caller ? { caller: item.caller } : {}),
        status: 'completed',
      };
    case 'function_call_output':
      return {
        type: 'function_call_output',
        id: item.id ?? newId('fco'),
        call_id: item.call_id,
        output: toolOutputParts(item.output, `input[${i}].output`),
        ...(item.namespace ? { namespace: item.namespace } : {}),
        ...(item.caller ? { caller: item.caller } : {}),
        status: 'completed',
      };
    case 'custom_tool_call':
    case 'custom_tool_call_output':
    case 'shell_call':
    case 'shell_call_output':
    case 'local_shell_call':
    case 'local_shell_call_output':
    case 'apply_patch_call':
    case 'apply_patch_call_output':
    case 'computer_call':
    case 'computer_call_output':
      return normalizeClientItem(item, i);
    case 'reasoning': {
      const id = item.id ?? newId('rs');
      // Sealed reasoning is what the model thought: it replaces whatever plain parts came with it.
      if (item.encrypted_content && openSealed) {
        const sealed = await openSealed(item.id ?? '', item.encrypted_content, `input[${i}].encrypted_content`);
        return { type: 'reasoning', id, summary: sealed.summary, content: sealed.content, status: 'completed' };
      }
      return { type: 'reasoning', id, summary: item.summary, content: item.content ?? [], status: 'completed' };
    }
    case 'compaction':
      // Refused now, naming the item, rather than at every later turn that would show it.
      await checkCompaction?.(item.encrypted_content, `input[${i}].encrypted_content`);
      return { type: 'compaction', id: item.id ?? newId('cmp'), encrypted_content: item.encrypted_content, ...(item.created_by ? { created_by: item.created_by } : {}) };
    case 'additional_tools':
      return storedAdditionalTools(item, tools);
    case 'configuration_update':
      return storedConfigurationUpdate(item);
    case 'item_reference': {
      const found = await findItem(item.id);
      if (!found) throw notFound(`Item with id '${item.id}' not found.`, `input[${i}].id`, Codes.itemNotFound);
      return found;
    }
  }
  // Only a tool's item reaches here, and no tool owns it in this runtime.
  throw invalidRequest(`Invalid value: '${item.type}'. This runtime has no tool that reads '${item.type}' items.`, `input[${i}].type`, Codes.invalidValue);
}

