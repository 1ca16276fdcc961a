/**
 * Remote MCP servers as a builtin tool, through the real `openai` SDK: listing once per
 * chain, calls run by the server, OpenAI's items and event order, approvals, allowed_tools,
 * failures that leave the response going, and secrets that are never echoed or stored.
 * The MCP client is a fake at the ToolPorts boundary (`test/fakes/fake-mcp.ts`).
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { ResponseStreamEvent, Tool } from 'openai/resources/responses/responses';
import { fakeMcp, type FakeMcp } from '../fakes/fake-mcp';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient;
let mcp: FakeMcp;
afterEach(() => closeAndCheck(local));

async function setup() {
  mcp = fakeMcp();
  local = await localClient({ tools: { mcp } });
}

const TOKEN = 'tok-very-secret-42';
const call = (name: string, args: object) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
const server = (extra: Partial<Tool.Mcp> = {}): Tool.Mcp => ({
  type: 'mcp',
  server_label: 'calc',
  server_url: 'http://calc.test/mcp',
  authorization: TOKEN,
  headers: { 'X-Api-Key': 'key-also-secret' },
  require_approval: 'never',
  ...extra,
});

async function collect(stream: AsyncIterable<ResponseStreamEvent>) {
  const out: ResponseStreamEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

describe('mcp tool', () => {
  test('lists the tools, runs the call, streams OpenAI’s events in order; secrets are used, never echoed or stored', async () => {
    await setup();
    const events = await collect(
      await local.client.responses.create({
        model: 'test-scripted',
        input: script([call('calc__add', { a: 2, b: 3 }), 'It is 5.']),
        tools: [server()],
        stream: true,
      }),
    );
    const types = events.map((e) => e.type).filter((t) => !t.startsWith('response.output_text') && !t.startsWith('response.content_part'));
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.mcp_list_tools.in_progress',
      'response.mcp_list_tools.completed',
      'response.output_item.done',
      'response.output_item.added',
      'response.mcp_call.in_progress',
      'response.mcp_call_arguments.delta',
      'response.mcp_call_arguments.done',
      'response.mcp_call.completed',
      'response.output_item.done',
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    const done = events.at(-1);
    if (done?.type !== 'response.completed') throw new Error('not completed');
    const [list, mcpCall, message] = done.response.output;
    expect(list).toMatchObject({ type: 'mcp_list_tools', server_label: 'calc', tools: [{ name: 'add' }, { name: 'shout' }] });
    expect(mcpCall).toMatchObject({ type: 'mcp_call', server_label: 'calc', name: 'add', arguments: '{"a":2,"b":3}', output: '5', status: 'completed', error: null });
    expect(message).toMatchObject({ type: 'message', content: [{ text: 'It is 5.' }] });
    // The call went out with the credentials …
    expect(mcp.calls).toEqual([{ url: 'http://calc.test/mcp', name: 'add', args: { a: 2, b: 3 }, headers: { 'X-Api-Key': 'key-also-secret', Authorization: `Bearer ${TOKEN}` } }]);
    // … which appear in no answer and no stored row.
    expect(done.response.tools[0]).toEqual({ type: 'mcp', server_label: 'calc', server_url: 'http://calc.test/mcp', require_approval: 'never', headers: null });
    expect(JSON.stringify(events)).not.toMatch(/tok-very-secret|key-also-secret/);
    const stored = await local.client.responses.retrieve(done.response.id);
    expect(JSON.stringify(stored)).not.toMatch(/tok-very-secret|key-also-secret/);
  });

  test('allowed_tools: only those are listed and callable; a call of another stays text', async () => {
    await setup();
    const res = await local.client.responses.create({
      model: 'test-scripted',
      input: script(call('calc__shout', { text: 'hi' })),
      tools: [server({ allowed_tools: ['add'] })],
    });
    expect(res.output[0]).toMatchObject({ type: 'mcp_list_tools', tools: [{ name: 'add' }] });
    expect((res.output[0] as { tools: unknown[] }).tools).toHaveLength(1);
    expect(mcp.calls).toEqual([]);
    expect(res.output.map((i) => i.type)).toEqual(['mcp_list_tools', 'message']);
  });

  test('a read_only filter picks the tools annotated readOnlyHint', async () => {
    await setup();
    const res = await local.client.responses.create({ model: 'test-scripted', input: 'hi', tools: [server({ allowed_tools: { read_only: true } })] });
    expect(res.output[0]).toMatchObject({ type: 'mcp_list_tools', tools: [{ name: 'add' }] });
    expect((res.output[0] as { tools: unknown[] }).tools).toHaveLength(1);
  });

  test('approval: the response ends with mcp_approval_request; approving runs the call, reusing the chain’s tool list', async () => {
    await setup();
    const first = await local.client.responses.create({
      model: 'test-scripted',
      input: script([call('calc__shout', { text: 'hello' }), 'Shouted: HELLO.']),
      tools: [server({ require_approval: 'always' })],
    });
    expect(first.status).toBe('completed');
    expect(first.output.map((i) => i.type)).toEqual(['mcp_list_tools', 'mcp_approval_request']);
    const request = first.output[1]!;
    if (request.type !== 'mcp_approval_request') throw new Error('no approval request');
    expect(request).toMatchObject({ server_label: 'calc', name: 'shout', arguments: '{"text":"hello"}' });
    expect(mcp.calls).toEqual([]);

    const second = await local.client.responses.create({
      model: 'test-scripted',
      previous_response_id: first.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }],
      tools: [server({ require_approval: 'always' })],
    });
    expect(second.output.map((i) => i.type)).toEqual(['mcp_call', 'message']);
    expect(second.output[0]).toMatchObject({ name: 'shout', output: 'HELLO', status: 'completed', approval_request_id: request.id });
    expect(second.output_text).toBe('Shouted: HELLO.');
    expect(mcp.calls.map((c) => c.name)).toEqual(['shout']);
    // Listed once per conversation.
    expect(mcp.lists).toHaveLength(1);
    const items = await local.client.responses.inputItems.list(second.id);
    expect(items.data[0]).toMatchObject({ type: 'mcp_approval_response', approval_request_id: request.id, approve: true });
  });

  test('approval denied: no call is made, and the model is told', async () => {
    await setup();
    const first = await local.client.responses.create({
      model: 'test-scripted',
      input: script([call('calc__shout', { text: 'hello' }), 'Not allowed, then.']),
      tools: [server({ require_approval: 'always' })],
    });
    const request = first.output.find((i) => i.type === 'mcp_approval_request')!;
    const second = await local.client.responses.create({
      model: 'test-scripted',
      previous_response_id: first.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: false, reason: 'no' }],
      tools: [server({ require_approval: 'always' })],
    });
    expect(second.output.map((i) => i.type)).toEqual(['message']);
    expect(second.output_text).toBe('Not allowed, then.');
    expect(mcp.calls).toEqual([]);
  });

  test('require_approval filter: tools under never run at once, the others wait for approval', async () => {
    await setup();
    const res = await local.client.responses.create({
      model: 'test-scripted',
      input: script(call('calc__add', { a: 1, b: 1 }) + call('calc__shout', { text: 'x' })),
      tools: [server({ require_approval: { never: { tool_names: ['add'] } } })],
    });
    expect(res.output.map((i) => i.type)).toEqual(['mcp_list_tools', 'mcp_call', 'mcp_approval_request']);
    expect(mcp.calls.map((c) => c.name)).toEqual(['add']);
  });

  test('an approval that answers no request is a 400', async () => {
    await setup();
    const first = await local.client.responses.create({ model: 'test-scripted', input: 'hi', tools: [server()] });
    const err = await local.client.responses
      .create({ model: 'test-scripted', previous_response_id: first.id, input: [{ type: 'mcp_approval_response', approval_request_id: 'mcpr_nope', approve: true }], tools: [server()] })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, param: 'input[0].approval_request_id' });
  });

  test('a server that cannot be listed fails its mcp_list_tools; the response goes on', async () => {
    await setup();
    const events = await collect(
      await local.client.responses.create({ model: 'test-scripted', input: 'hi', tools: [server({ server_url: 'http://down.test/mcp' })], stream: true }),
    );
    expect(events.map((e) => e.type)).toContain('response.mcp_list_tools.failed');
    const done = events.at(-1);
    if (done?.type !== 'response.completed') throw new Error('not completed');
    expect(done.response.output[0]).toMatchObject({ type: 'mcp_list_tools', tools: [], error: "The MCP server 'calc' could not be reached." });
    expect(done.response.output_text).toBe('You said: hi');
  });

  test('a call answered 401 fails its mcp_call with the http error; the model is told and answers', async () => {
    await setup();
    const events = await collect(
      await local.client.responses.create({
        model: 'test-scripted',
        input: script([call('calc__add', { a: 1, b: 2 }), 'The server refused.']),
        tools: [server({ server_url: 'http://locked.test/mcp' })],
        stream: true,
      }),
    );
    expect(events.map((e) => e.type)).toContain('response.mcp_call.failed');
    const done = events.at(-1);
    if (done?.type !== 'response.completed') throw new Error('not completed');
    expect(done.response.output[1]).toMatchObject({ type: 'mcp_call', status: 'failed', output: null, error: { type: 'http_error', code: 401 } });
    expect(done.response.output_text).toBe('The server refused.');
  });

  test('a runtime without an MCP client refuses mcp tools with a 400', async () => {
    local = await localClient({ tools: {} });
    const err = await local.client.responses.create({ model: 'test-scripted', input: 'hi', tools: [server()] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, code: 'unsupported_tool', param: 'tools[0].type' });
  });
});
