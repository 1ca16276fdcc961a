/**
 * `code_interpreter` as a builtin tool: the model sees it as the `python` function (the name
 * models are trained on); a call is a `code_interpreter_call` streamed in OpenAI's order —
 * `output_item.added` → `code_interpreter_call.in_progress` → `code_interpreter_call_code.delta/.done`
 * → `.interpreting` → `.completed` → `output_item.done` — run in the conversation's container
 * (its Python state). A failed call ends with its item `failed`, and the model is told why.
 */
import type { ToolSpec } from '../../chat/chat-format';
import type { BuiltinTool, CallContext, ToolCall, TurnItems } from '../../ports/builtin-tool';
import type { CodeInterpreterPort } from '../../ports/tool-ports';
import type { Tool } from '../../protocol/create-request';
import type { CodeInterpreterCall, StoredItem } from '../../protocol/output-items';
import type { CodeInterpreterCallInput } from '../../protocol/tool-input-items';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { newId } from '../../shared/ids';
import { callConversation, parseArgs, str } from '../call-view';
import type { z } from 'zod';

export const PYTHON: ToolSpec = {
  name: 'python',
  description:
    'Run Python 3 code in a sandbox and see what it prints (stdout and stderr). The state (variables, imports) is kept between calls in this conversation. Only the standard library is guaranteed; there is no network access to this app. Print what you want to see.',
  parameters: { type: 'object', properties: { code: { type: 'string', description: 'The Python code to run.' } }, required: ['code'] },
};

/** What the model is shown of a run: its output, the images it made (counted), and the error. */
export function codeOutputForModel(logs: string, images: number, error: string | null): string {
  const parts = [logs || (error ? '' : '(no output)')];
  if (images) parts.push(`[${images} image${images > 1 ? 's' : ''} shown to the user]`);
  if (error) parts.push(`Error: ${error}`);
  return parts.filter(Boolean).join('\n');
}

const isCall = (item: { type: string }): item is CodeInterpreterCall => item.type === 'code_interpreter_call';

/** Python state lives per conversation: the chain's container (a replayed call's too), else the one named, else a new one. */
function containerFor(entries: readonly Tool[], turn: TurnItems): string {
  const previous = [...turn.history, ...turn.input].reverse().find(isCall);
  if (previous) return previous.container_id;
  const tool = entries.find((t) => t.type === 'code_interpreter');
  if (tool?.type === 'code_interpreter' && typeof tool.container === 'string') return tool.container;
  return newId('cntr');
}

/** `port`: the interpreter this runtime has (none: a request with the tool is a 400). */
export function codeInterpreterTool(port: CodeInterpreterPort | undefined): BuiltinTool {
  const run = async (item: CodeInterpreterCall, index: number, context: CallContext) => {
    const { items, signal } = context;
    item.status = 'interpreting';
    items.update(index, item);
    items.emit({ type: 'response.code_interpreter_call.interpreting', item_id: item.id, output_index: index });
    const result = port
      ? await port.run(item.code ?? '', { containerId: item.container_id, signal })
      : { logs: '', images: [], error: 'The code interpreter is not available in this runtime.' };
    item.outputs = [...(result.logs ? [{ type: 'logs' as const, logs: result.logs }] : []), ...result.images.map((url) => ({ type: 'image' as const, url }))];
    item.status = result.error ? 'failed' : 'completed';
    if (!result.error) items.emit({ type: 'response.code_interpreter_call.completed', item_id: item.id, output_index: index });
    items.complete(index, item);
    return callConversation(PYTHON.name, item.id, { code: item.code ?? '' }, codeOutputForModel(result.logs, result.images.length, result.error));
  };

  return {
    name: 'code_interpreter',
    toolTypes: ['code_interpreter'],
    itemTypes: ['code_interpreter_call'],
    // Outputs are kept (the model needs them in later turns) but shown only when asked for, as OpenAI does.
    includes: { 'code_interpreter_call.outputs': (item) => (isCall(item) ? { ...item, outputs: null } : item) },
    functionNames: () => [PYTHON.name],
    check(entries) {
      if (!port) throw invalidRequest('The code_interpreter tool is not available in this runtime (Python could not be started here).', `tools[${entries[0]!.index}].type`, Codes.unsupportedTool);
    },
    accept(input): StoredItem {
      const item = input as z.infer<typeof CodeInterpreterCallInput>;
      return { type: 'code_interpreter_call', id: item.id, status: item.status, code: item.code, container_id: item.container_id, outputs: item.outputs ?? null };
    },
    view(item) {
      if (!isCall(item)) return [];
      const logs = (item.outputs ?? []).flatMap((o) => (o.type === 'logs' ? [o.logs] : [])).join('');
      const images = (item.outputs ?? []).filter((o) => o.type === 'image').length;
      const error = item.status === 'failed' ? 'the call failed' : null;
      return callConversation(PYTHON.name, item.id, { code: item.code ?? '' }, codeOutputForModel(logs, images, error));
    },
    session(entries, turn) {
      const containerId = containerFor(entries, turn);
      return {
        functions: () => [PYTHON],
        begin(_name, argsJson, context): ToolCall {
          const { items } = context;
          const code = str(parseArgs(argsJson).code);
          const item: CodeInterpreterCall = { type: 'code_interpreter_call', id: newId('ci'), status: 'in_progress', code: '', container_id: containerId, outputs: null };
          const index = items.begin(item);
          items.emit({ type: 'response.code_interpreter_call.in_progress', item_id: item.id, output_index: index });
          items.emit({ type: 'response.code_interpreter_call_code.delta', item_id: item.id, output_index: index, delta: code });
          items.emit({ type: 'response.code_interpreter_call_code.done', item_id: item.id, output_index: index, code });
          item.code = code;
          items.update(index, item);
          return { index, run: () => run(item, index, context) };
        },
      };
    },
  };
}
