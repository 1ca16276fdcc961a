import type { ConversationItem } from 'openai/resources/conversations/items';
import { expect, test } from 'vitest';
import { turnsFromItems } from './conversation-turns';

const user = (id: string, text: string) => ({ type: 'message', id, role: 'user', status: 'completed', content: [{ type: 'input_text', text }] }) as ConversationItem;
const assistant = (id: string, text: string) =>
  ({ type: 'message', id, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }) as ConversationItem;

test('each user message opens a turn; reasoning, tool calls and the answer after it are its output, with their item ids', () => {
  const reasoning = { type: 'reasoning', id: 'rs_1', summary: [], content: [{ type: 'reasoning_text', text: 'think' }] } as unknown as ConversationItem;
  const code = { type: 'code_interpreter_call', id: 'ci_1', code: 'print(1)', container_id: 'c', outputs: [{ type: 'logs', logs: '1\n' }], status: 'completed' } as unknown as ConversationItem;
  const system = { type: 'message', id: 'msg_s', role: 'system', status: 'completed', content: [{ type: 'input_text', text: 'be nice' }] } as ConversationItem;
  const turns = turnsFromItems([system, user('msg_u1', 'hi'), reasoning, code, assistant('msg_a1', 'It is 1.'), user('msg_u2', 'and?'), assistant('msg_a2', 'Done.')], 5_000);
  expect(turns.map((t) => [t.input, t.status, t.itemIds, t.output.map((o) => o.type)])).toEqual([
    ['hi', 'completed', ['msg_u1', 'rs_1', 'ci_1', 'msg_a1'], ['reasoning', 'code_interpreter_call', 'message']],
    ['and?', 'completed', ['msg_u2', 'msg_a2'], ['message']],
  ]);
  expect(turns[0]!.output[1]).toBe(code);
  expect(turns[1]!.finishedAt).toBe(5_000);
});

test('an approval answer opens a turn named after its request; output before any message gets a turn of its own', () => {
  const request = { type: 'mcp_approval_request', id: 'mcpr_1', server_label: 's0', name: 'shout', arguments: '{}' } as ConversationItem;
  const approval = { type: 'mcp_approval_response', id: 'mcpa_1', approval_request_id: 'mcpr_1', approve: true } as ConversationItem;
  const turns = turnsFromItems([assistant('msg_0', 'Hello from code.'), user('msg_u', 'shout'), request, approval, assistant('msg_a', 'SHOUTED')], 0);
  expect(turns.map((t) => [t.input, t.approval ?? null, t.itemIds])).toEqual([
    ['', null, ['msg_0']],
    ['shout', null, ['msg_u', 'mcpr_1']],
    ['Approved: shout on s0', { requestId: 'mcpr_1', approve: true, server: 's0', tool: 'shout' }, ['mcpa_1', 'msg_a']],
  ]);
});

test('an assistant message added from code with input_text parts renders as output_text', () => {
  const fromCode = { type: 'message', id: 'msg_c', role: 'assistant', status: 'completed', content: [{ type: 'input_text', text: 'typed' }] } as ConversationItem;
  const [turn] = turnsFromItems([user('msg_u', 'q'), fromCode], 0);
  expect(turn!.output).toEqual([{ type: 'message', id: 'msg_c', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'typed', annotations: [] }] }]);
});
