/**
 * A builtin tool that exists only for tests: the proof that a tool is a plug-in. It is one
 * descriptor (`BuiltinTool`), registered with one line (`localClient({ extraTools: [echoTool()] })`),
 * with no other file of the runtime edited: its request entry (`{type: "echo", prefix}`), its
 * item (`echo_call`) and how it reads back are all here. The model calls `echo` with
 * `{"text"}`; the call's output is the text after the entry's prefix.
 */
import { z } from 'zod';
import type { ToolSpec } from '../../src/chat/chat-format';
import type { BuiltinTool, ToolCall } from '../../src/ports/builtin-tool';
import type { OutputItem, StoredItem } from '../../src/protocol/output-items';
import { newId } from '../../src/shared/ids';

export const EchoEntry = z.strictObject({ type: z.literal('echo'), prefix: z.string().max(100).optional() });
export const EchoCall = z.strictObject({
  type: z.literal('echo_call'),
  id: z.string().min(1),
  status: z.enum(['in_progress', 'completed']),
  text: z.string(),
  output: z.string().nullable(),
});
type EchoCall = z.infer<typeof EchoCall>;

const ECHO: ToolSpec = {
  name: 'echo',
  description: 'Repeat a text back, after a prefix.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

/** What the model is shown of a call, in its round and in every later turn. */
const shown = (call: EchoCall) => `echoed: ${call.output ?? '(nothing yet)'}`;
const asConversation = (call: EchoCall) => [
  { type: 'function_call' as const, call_id: call.id, name: ECHO.name, arguments: JSON.stringify({ text: call.text }) },
  { type: 'function_call_output' as const, call_id: call.id, output: shown(call) },
];
// The server carries a plug-in's items as it carries any item, without reading their fields.
const asItem = (call: EchoCall) => call as unknown as OutputItem;

/** Every `echo` call the tool ran (a replayed item must never show up here). */
export function echoTool(ran: string[] = []): BuiltinTool {
  return {
    name: 'echo',
    toolTypes: ['echo'],
    itemTypes: ['echo_call'],
    schemas: { entry: EchoEntry, items: [EchoCall] },
    functionNames: () => [ECHO.name],
    accept: (item) => EchoCall.parse(item) as unknown as StoredItem,
    view: (item) => asConversation(EchoCall.parse(item)),
    session(entries) {
      const prefix = EchoEntry.parse(entries[0]).prefix ?? '';
      return {
        functions: () => [ECHO],
        begin(_name, args, { items }): ToolCall {
          const parsed = z.object({ text: z.string() }).safeParse(JSON.parse(args));
          const call: EchoCall = { type: 'echo_call', id: newId('echo'), status: 'in_progress', text: parsed.success ? parsed.data.text : '', output: null };
          const index = items.begin(asItem(call));
          return {
            index,
            run: async () => {
              ran.push(call.text);
              call.output = prefix + call.text;
              call.status = 'completed';
              items.complete(index, asItem(call));
              return asConversation(call);
            },
          };
        },
      };
    },
  };
}
