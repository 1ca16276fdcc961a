/**
 * Deferred MCP servers (`{type: "mcp", defer_loading: true}`, issue 33 item 1), through the
 * real `openai` SDK with the fake MCP port: the server is listed as usual but its tools are not
 * shown to the model; `tool_search` ranks them with the other deferred tools, a load lists the
 * server's entry (no secrets) in the `tool_search_output`, and the loaded tool runs through
 * the MCP session (approvals as usual) in the same response and for the rest of the chain. The
 * load's text is rebuilt from the stored items, byte for byte, so a later turn's prompt keeps
 * the earlier one as its prefix.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type OpenAI from 'openai';
import type { Tool } from 'openai/resources/responses/responses';
import { fakeMcp, type FakeMcp } from '../fakes/fake-mcp';
import { RecordingEngine } from '../fakes/recording-engine';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient;
let mcp: FakeMcp;
let engine: RecordingEngine;
afterEach(() => closeAndCheck(local));

async function setup() {
  mcp = fakeMcp();
  engine = new RecordingEngine();
  local = await localClient({ tools: { mcp }, engine });
}

const model = 'test-scripted';
const TOKEN = 'tok-deferred-secret-7';
const call = (name: string, args: object) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
const deferred = (extra: Partial<Tool.Mcp> = {}): Tool.Mcp => ({
  type: 'mcp',
  server_label: 'calc',
  server_url: 'http://calc.test/mcp',
  server_description: 'Arithmetic and text helpers.',
  authorization: TOKEN,
  headers: { 'X-Api-Key': 'key-deferred-secret' },
  require_approval: 'never',
  defer_loading: true,
  ...extra,
});
// A second server, not deferred: its tools are listed to the model as usual.
const plain: Tool.Mcp = { type: 'mcp', server_label: 'util', server_url: 'http://util.test/mcp', require_approval: 'never' };
const tools: Tool[] = [{ type: 'tool_search' }, deferred(), plain];

type Item = OpenAI.Responses.ResponseOutputItem;
const types = (output: readonly Item[]) => output.map((i) => i.type);
const prompts = () => engine.requests.map((r) => r.input.prompt);
const listedTools = (prompt: string) => prompt.slice(prompt.indexOf('<tools>\n'), prompt.indexOf('\n</tools>'));

describe('deferred MCP server', () => {
  test('listed but hidden; a search loads one tool (entry without secrets), the model calls it in the same response through the server', async () => {
    await setup();
    const response = await local.client.responses.create({ model, tools, input: script([call('tool_search', { query: 'add numbers' }), call('calc__add', { a: 2, b: 5 }), 'It is 7.']) });
    expect(types(response.output)).toEqual(['mcp_list_tools', 'mcp_list_tools', 'tool_search_call', 'tool_search_output', 'mcp_call', 'message']);
    expect(response.output[0]).toMatchObject({ type: 'mcp_list_tools', server_label: 'calc', tools: [{ name: 'add' }, { name: 'shout' }] });
    const loaded = response.output[3] as unknown as { tools: unknown[] };
    expect(loaded.tools).toEqual([
      { type: 'mcp', server_label: 'calc', server_url: 'http://calc.test/mcp', server_description: 'Arithmetic and text helpers.', require_approval: 'never', defer_loading: true, allowed_tools: ['add'] },
    ]);
    expect(response.output[4]).toMatchObject({ type: 'mcp_call', server_label: 'calc', name: 'add', output: '7', status: 'completed' });
    expect(response.output_text).toBe('It is 7.');
    // The call went to the deferred server, with its credentials; no answer carries them.
    expect(mcp.calls).toEqual([{ url: 'http://calc.test/mcp', name: 'add', args: { a: 2, b: 5 }, headers: { 'X-Api-Key': 'key-deferred-secret', Authorization: `Bearer ${TOKEN}` } }]);
    expect(JSON.stringify(response)).not.toMatch(/deferred-secret/);
    expect(JSON.stringify(await local.client.responses.retrieve(response.id))).not.toMatch(/deferred-secret/);

    // Round 1: the plain server's tools are listed, the deferred server's are not (the search names it as a group).
    const [round1, round2] = prompts();
    expect(listedTools(round1!)).toContain('"name": "util__add"');
    expect(listedTools(round1!)).toContain('calc (MCP server: Arithmetic and text helpers.)');
    // (The script in the user's message names calc__add: only the tool list and what the model was shown count.)
    expect(listedTools(round1!)).not.toContain('calc__');
    expect(round1).not.toContain('Add two numbers."}');
    // Round 2: round 1's prompt unchanged, then the loaded function, described from the listing.
    expect(round2!.startsWith(round1!)).toBe(true);
    expect(round2!.slice(round1!.length)).toContain(`Loaded 1 tool; call it like the others:\n{"type":"function","function":{"name":"calc__add","description":"Tool 'add' of the MCP server 'calc' (Arithmetic and text helpers.). Add two numbers."`);
    expect(round2).not.toContain('"name":"calc__shout"');
  });

  test('chained: the loaded tool stays callable, the next turn’s prompt keeps the earlier one byte for byte; a tool never loaded is not run', async () => {
    await setup();
    const first = await local.client.responses.create({ model, tools, input: script([call('tool_search', { query: 'add numbers' }), call('calc__add', { a: 1, b: 1 }), 'Two.']) });
    expect(first.output_text).toBe('Two.');
    const lastOfFirst = prompts().at(-1)!;

    const next = await local.client.responses.create({ model, tools, previous_response_id: first.id, input: script([call('calc__add', { a: 4, b: 4 }), 'Eight.']) });
    expect(types(next.output)).toEqual(['mcp_call', 'message']);
    expect(next.output[0]).toMatchObject({ name: 'add', output: '8' });
    // Listed once per chain; the load's text rebuilt from the stored listing is the same text.
    expect(mcp.lists.filter((l) => l.url === 'http://calc.test/mcp')).toHaveLength(1);
    const nextFirstRound = engine.requests.at(-2)!.input.prompt;
    expect(nextFirstRound.startsWith(lastOfFirst)).toBe(true);
    expect(nextFirstRound).toContain('Loaded 1 tool; call it like the others:\n{"type":"function","function":{"name":"calc__add"');

    // `shout` was never loaded: its call is text, and nothing reaches the server.
    const calls = mcp.calls.length;
    const other = await local.client.responses.create({ model, tools, previous_response_id: first.id, input: script([call('calc__shout', { text: 'hi' })]) });
    expect(types(other.output)).toEqual(['message']);
    expect(mcp.calls).toHaveLength(calls);
  });

  test('in a conversation, a loaded tool stays loaded for later turns', async () => {
    await setup();
    const conversation = await local.client.conversations.create();
    await local.client.responses.create({ model, tools, conversation: conversation.id, input: script([call('tool_search', { query: 'shout' }), 'Ready.']) });
    const afterLoad = prompts().at(-1)!;
    const later = await local.client.responses.create({ model, tools, conversation: conversation.id, input: script([call('calc__shout', { text: 'ok' }), 'Done.']) });
    expect(types(later.output)).toEqual(['mcp_call', 'message']);
    expect(later.output[0]).toMatchObject({ name: 'shout', output: 'OK' });
    expect(engine.requests.at(-2)!.input.prompt.startsWith(afterLoad)).toBe(true);
  });

  test('approvals still apply to a loaded tool: the call waits, and runs once approved in the next turn', async () => {
    await setup();
    const guarded = [{ type: 'tool_search' } as Tool, deferred({ require_approval: 'always' })];
    const asked = await local.client.responses.create({ model, tools: guarded, input: script([call('tool_search', { query: 'shout text' }), call('calc__shout', { text: 'hey' })]) });
    expect(types(asked.output)).toEqual(['mcp_list_tools', 'tool_search_call', 'tool_search_output', 'mcp_approval_request']);
    expect(mcp.calls).toEqual([]);
    const request = asked.output[3] as OpenAI.Responses.ResponseOutputItem.McpApprovalRequest;
    const approved = await local.client.responses.create({
      model,
      tools: guarded,
      previous_response_id: asked.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }, { role: 'user', content: script(['Done.']) }],
    } as never);
    expect(types(approved.output)).toEqual(['mcp_call', 'message']);
    expect(approved.output[0]).toMatchObject({ name: 'shout', output: 'HEY', approval_request_id: request.id });
  });

  test('a stateless client replaying the items keeps the tool loaded; a replayed entry may not carry secrets', async () => {
    await setup();
    const asked = script([call('tool_search', { query: 'shout' }), 'Loaded.']);
    const first = await local.client.responses.create({ model, tools, store: false, input: asked });
    const replay = await local.client.responses.create({ model, tools, store: false, input: [{ role: 'user', content: asked }, ...(first.output as never[]), { role: 'user', content: script([call('calc__shout', { text: 'yo' }), 'Ok.']) }] });
    expect(types(replay.output)).toEqual(['mcp_call', 'message']);
    expect(replay.output[0]).toMatchObject({ name: 'shout', output: 'YO' });

    const smuggled = (first.output as Array<{ type: string; tools?: object[] }>).map((i) => (i.type === 'tool_search_output' ? { ...i, tools: i.tools!.map((t) => ({ ...t, authorization: 'x' })) } : i));
    await expect(local.client.responses.create({ model, tools, input: [{ role: 'user', content: asked }, ...(smuggled as never[])] })).rejects.toMatchObject({ status: 400 });
  });

  test('tool_search with only a deferred MCP server is accepted; a deferred server without tool_search is a 400 naming it', async () => {
    await setup();
    const ok = await local.client.responses.create({ model, tools: [{ type: 'tool_search' }, deferred()], input: script(['Hi.']) });
    expect(ok.output_text).toBe('Hi.');
    expect(ok.tools).toContainEqual(expect.objectContaining({ type: 'mcp', server_label: 'calc', headers: null }));
    await expect(local.client.responses.create({ model, tools: [deferred()], input: 'hi' })).rejects.toMatchObject({
      status: 400,
      error: { param: 'tools[0].defer_loading', message: expect.stringContaining("'calc' is deferred") },
    });
  });
});
