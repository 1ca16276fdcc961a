/**
 * The calls a client runs, and their outputs, as a request sends them → stored items (ids
 * assigned, optional fields filled as the output items have them). Tool outputs with parts
 * keep text, images and files as messages do (a file is shown to the model as its text:
 * input-files.ts).
 */
import type { InputItem } from '../../protocol/input-item-schemas';
import type { StoredItem } from '../../protocol/output-items';
import { newId } from '../../shared/ids';
import { inputFile } from './input-file-part';

type ClientInput = Extract<
  InputItem,
  {
    type:
      | 'custom_tool_call'
      | 'custom_tool_call_output'
      | 'shell_call'
      | 'shell_call_output'
      | 'local_shell_call'
      | 'local_shell_call_output'
      | 'apply_patch_call'
      | 'apply_patch_call_output'
      | 'computer_call'
      | 'computer_call_output';
  }
>;

type OutputPartsInput = Extract<InputItem, { type: 'function_call_output' }>['output'];
export type StoredToolOutput = Extract<StoredItem, { type: 'function_call_output' }>['output'];

/** A tool output's parts as stored; `param`: where it is in the request (for the 400 on a file part). */
export function toolOutputParts(output: OutputPartsInput, param: string): StoredToolOutput {
  if (typeof output === 'string') return output;
  return output.map((part, j) => {
    if (part.type === 'input_text') return part;
    if (part.type === 'input_image') return { type: 'input_image' as const, image_url: part.image_url ?? null, file_id: part.file_id ?? null, detail: part.detail };
    return inputFile(part, `${param}[${j}]`);
  });
}

export function normalizeClientItem(item: ClientInput, i: number): StoredItem {
  const status = 'completed' as const;
  switch (item.type) {
    case 'custom_tool_call':
      return { type: 'custom_tool_call', id: item.id ?? newId('ctc'), call_id: item.call_id, name: item.name, input: item.input, ...(item.namespace ? { namespace: item.namespace } : {}), status };
    case 'custom_tool_call_output':
      return { type: 'custom_tool_call_output', id: item.id ?? newId('ctco'), call_id: item.call_id, output: toolOutputParts(item.output, `input[${i}].output`), status };
    case 'shell_call':
      return {
        type: 'shell_call',
        id: item.id ?? newId('sh'),
        call_id: item.call_id,
        action: { commands: item.action.commands, timeout_ms: item.action.timeout_ms ?? null, max_output_length: item.action.max_output_length ?? null },
        environment: { type: 'local' },
        status,
      };
    case 'shell_call_output':
      return {
        type: 'shell_call_output',
        id: item.id ?? newId('sho'),
        call_id: item.call_id,
        max_output_length: item.max_output_length ?? null,
        output: item.output.map(({ stdout, stderr, outcome }) => ({ stdout, stderr, outcome })),
        status,
      };
    case 'local_shell_call': {
      const { timeout_ms, user, working_directory } = item.action;
      const action = {
        type: 'exec' as const,
        command: item.action.command,
        env: item.action.env,
        ...(timeout_ms != null ? { timeout_ms } : {}),
        ...(user != null ? { user } : {}),
        ...(working_directory != null ? { working_directory } : {}),
      };
      return { type: 'local_shell_call', id: item.id ?? newId('lsh'), call_id: item.call_id, action, status };
    }
    case 'local_shell_call_output':
      // With only `id`, that names the call (OpenAI's type); resolved against the chain later.
      return { type: 'local_shell_call_output', id: item.call_id && item.id ? item.id : newId('lsho'), call_id: (item.call_id ?? item.id)!, output: item.output, status };
    case 'apply_patch_call': {
      const op = item.operation;
      const operation = op.type === 'delete_file' ? { type: op.type, path: op.path } : { type: op.type, path: op.path, diff: op.diff };
      return { type: 'apply_patch_call', id: item.id ?? newId('apc'), call_id: item.call_id, operation, status: item.status };
    }
    case 'computer_call':
      return { type: 'computer_call', id: item.id, call_id: item.call_id, action: item.action, pending_safety_checks: item.pending_safety_checks, status: item.status };
    case 'computer_call_output': {
      const { image_url, file_id } = item.output;
      const output = { type: 'computer_screenshot' as const, ...(image_url ? { image_url } : {}), ...(file_id ? { file_id } : {}) };
      const checks = item.acknowledged_safety_checks ? { acknowledged_safety_checks: item.acknowledged_safety_checks } : {};
      return { type: 'computer_call_output', id: item.id ?? newId('cuo'), call_id: item.call_id, output, ...checks, status };
    }
    case 'apply_patch_call_output':
      return { type: 'apply_patch_call_output', id: item.id ?? newId('apco'), call_id: item.call_id, status: item.status, ...(item.output != null ? { output: item.output } : {}) };
  }
}
