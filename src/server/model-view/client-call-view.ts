/**
 * How the calls the client runs, and what it sent back, look to the model in later rounds
 * and turns: the function call it made (under the name it was shown the tool by, see
 * client-tools.ts) and the output as text.
 */
import type { ConversationItem } from '../../chat/chat-format';
import type { ApplyPatchCall, ApplyPatchCallOutput, ComputerCall, ComputerCallOutput, CustomToolCall, CustomToolCallOutput, LocalShellCall, LocalShellCallOutput, ShellCall, ShellCallOutput } from '../../protocol/client-call-items';
import { APPLY_PATCH_NAME, COMPUTER_NAME, LOCAL_SHELL_NAME, namespacedName, SHELL_NAME } from './client-tools';

type ClientCallItem = CustomToolCall | ShellCall | LocalShellCall | ApplyPatchCall | ComputerCall;
type ClientOutputItem = CustomToolCallOutput | ShellCallOutput | LocalShellCallOutput | ApplyPatchCallOutput | ComputerCallOutput;

/** The call as the model wrote it: its model-side name and arguments (the item's own fields). */
export function clientCallAsConversation(item: ClientCallItem): ConversationItem {
  const call = (name: string, args: unknown): ConversationItem => ({ type: 'function_call', call_id: item.call_id, name, arguments: JSON.stringify(args) });
  switch (item.type) {
    case 'custom_tool_call':
      return call(item.namespace ? namespacedName(item.namespace, item.name) : item.name, { input: item.input });
    case 'shell_call':
      return call(SHELL_NAME, {
        commands: item.action.commands,
        ...(item.action.timeout_ms !== null ? { timeout_ms: item.action.timeout_ms } : {}),
        ...(item.action.max_output_length !== null ? { max_output_length: item.action.max_output_length } : {}),
      });
    case 'local_shell_call': {
      const { type: _exec, ...action } = item.action;
      return call(LOCAL_SHELL_NAME, Object.fromEntries(Object.entries(action).filter(([, v]) => v !== null && v !== undefined)));
    }
    case 'apply_patch_call':
      return call(APPLY_PATCH_NAME, { operation: item.operation });
    case 'computer_call':
      return call(COMPUTER_NAME, { action: item.action });
  }
}

/** What the client sent back, as the output the model reads. `text` renders a custom tool's parts (images aside). */
export function clientOutputAsConversation(item: ClientOutputItem, text: (output: CustomToolCallOutput['output']) => string): ConversationItem {
  const output = (shown: string): ConversationItem => ({ type: 'function_call_output', call_id: item.call_id, output: shown });
  switch (item.type) {
    case 'custom_tool_call_output':
      return output(text(item.output));
    case 'shell_call_output':
      return output(item.output.map(shellResult).join('\n\n') || '(no output)');
    case 'local_shell_call_output':
      return output(item.output);
    case 'computer_call_output':
      // The screenshot itself goes with it as an image (to-conversation.ts); a blind model never gets here (image-inputs.ts).
      return { ...output('The screenshot after the action.'), ...(item.output.image_url ? { images: [item.output.image_url] } : {}) };
    case 'apply_patch_call_output':
      return output(`${item.status === 'completed' ? 'Done' : 'Failed'}${item.output ? `: ${item.output}` : '.'}`);
  }
}

function shellResult(entry: ShellCallOutput['output'][number]): string {
  const ended = entry.outcome.type === 'timeout' ? '(timed out)' : `(exit code ${entry.outcome.exit_code})`;
  return [entry.stdout, entry.stderr ? `stderr:\n${entry.stderr}` : '', ended].filter(Boolean).join('\n');
}
