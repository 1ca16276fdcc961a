/**
 * Request input → stored items: ids assigned, string content normalized to parts,
 * `item_reference`s resolved. What is stored is what `input_items` lists later.
 */
import type { InputFilePart, InputItem } from '../../protocol/input-item-schemas';
import type { InputFile } from '../../protocol/output-items';
import type { z } from 'zod';
import type { StoredItem } from '../../protocol/output-items';
import { invalidRequest, notFound } from '../../shared/api-error';
import { newId } from '../../shared/ids';
import { Codes } from '../../shared/error-codes';
import type { SealedReasoning } from '../sealing/encrypted-reasoning';

export type FindItem = (id: string) => Promise<StoredItem | undefined>;
/** Opens a reasoning item's `encrypted_content` (see encrypted-reasoning.ts); rejects with a 400 naming `param`. */
export type OpenSealed = (id: string, sealed: string, param: string) => Promise<SealedReasoning>;

/** Checks a compaction item's `encrypted_content` opens (see compaction-sealer.ts); rejects with a 400 naming `param`. */
export type CheckCompaction = (sealed: string, param: string) => Promise<unknown>;

export async function normalizeInput(
  input: string | InputItem[] | undefined,
  findItem: FindItem,
  openSealed?: OpenSealed,
  checkCompaction?: CheckCompaction,
): Promise<StoredItem[]> {
  if (input === undefined) return [];
  if (typeof input === 'string')
    return [{ type: 'message', id: newId('msg'), role: 'user', status: 'completed', content: [{ type: 'input_text', text: input }] }];
  const out: StoredItem[] = [];
  for (const [i, item] of input.entries()) out.push(await normalizeItem(item, i, findItem, openSealed, checkCompaction));
  return out;
}

async function normalizeItem(item: InputItem, i: number, findItem: FindItem, openSealed?: OpenSealed, checkCompaction?: CheckCompaction): Promise<StoredItem> {
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
        return { type: 'message', id, role: 'assistant', status: 'completed', content };
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
      return { type: 'function_call', id: item.id ?? newId('fc'), call_id: item.call_id, name: item.name, arguments: item.arguments, status: 'completed' };
    case 'function_call_output':
      return {
        type: 'function_call_output',
        id: item.id ?? newId('fco'),
        call_id: item.call_id,
        output:
          typeof item.output === 'string'
            ? item.output
            : item.output.map((part) =>
                part.type === 'input_text'
                  ? part
                  : { type: 'input_image' as const, image_url: part.image_url ?? null, file_id: part.file_id ?? null, detail: part.detail },
              ),
        status: 'completed',
      };
    case 'reasoning': {
      const id = item.id ?? newId('rs');
      // Sealed reasoning is what the model thought: it replaces whatever plain parts came with it.
      if (item.encrypted_content && openSealed) {
        const sealed = await openSealed(item.id ?? '', item.encrypted_content, `input[${i}].encrypted_content`);
        return { type: 'reasoning', id, summary: sealed.summary, content: sealed.content, status: 'completed' };
      }
      return { type: 'reasoning', id, summary: item.summary, content: item.content ?? [], status: 'completed' };
    }
    case 'mcp_approval_response':
      return { type: 'mcp_approval_response', id: item.id ?? newId('mcpa'), approval_request_id: item.approval_request_id, approve: item.approve, reason: item.reason ?? null };
    case 'compaction':
      // Refused now, naming the item, rather than at every later turn that would show it.
      await checkCompaction?.(item.encrypted_content, `input[${i}].encrypted_content`);
      return { type: 'compaction', id: item.id ?? newId('cmp'), encrypted_content: item.encrypted_content, ...(item.created_by ? { created_by: item.created_by } : {}) };
    case 'file_search_call':
      return {
        type: 'file_search_call',
        id: item.id,
        queries: item.queries,
        status: item.status,
        results: item.results?.map((r) => ({ file_id: r.file_id ?? '', filename: r.filename ?? '', score: r.score ?? 0, text: r.text ?? '', attributes: r.attributes ?? null })) ?? null,
      };
    case 'item_reference': {
      const found = await findItem(item.id);
      if (!found) throw notFound(`Item with id '${item.id}' not found.`, `input[${i}].id`, Codes.itemNotFound);
      return found;
    }
  }
}

/** An `input_file` part as stored: exactly one of `file_id` and `file_data` (with its `filename`); never a URL. */
function inputFile(part: z.infer<typeof InputFilePart>, param: string): InputFile {
  if (part.file_url !== undefined)
    throw invalidRequest(
      "Unsupported parameter: 'file_url'. The local runtime fetches nothing a request names: upload the file (POST /v1/files) and send its file_id, or send its bytes as file_data.",
      `${param}.file_url`,
      Codes.unsupportedParameter,
    );
  const id = part.file_id ?? null;
  if (id !== null && part.file_data !== undefined)
    throw invalidRequest("Mutually exclusive parameters: send one of 'file_id' and 'file_data'.", `${param}.file_data`, Codes.mutuallyExclusiveParameters);
  if (id === null && part.file_data === undefined) throw invalidRequest("Missing required parameter: 'file_id' (or 'file_data').", `${param}.file_id`, Codes.missingRequiredParameter);
  if (part.file_data !== undefined && part.filename === undefined)
    throw invalidRequest("Missing required parameter: 'filename' (a file sent as file_data needs its name).", `${param}.filename`, Codes.missingRequiredParameter);
  return { type: 'input_file', file_id: id, ...(part.filename !== undefined ? { filename: part.filename } : {}), ...(part.file_data !== undefined ? { file_data: part.file_data } : {}) };
}
