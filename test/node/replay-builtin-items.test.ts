/**
 * Every output item goes back in: a client that keeps its own history (`store: false`, or
 * any client replaying `response.output`) sends a turn's output back with its next message,
 * and the runtime takes it as history — builtin calls included, as OpenAI takes every item it
 * returns. What the model is shown of a replayed call is what it saw of it in a later turn of
 * a stored chain; nothing is run again, and an item naming something this runtime does not
 * have (a container, an MCP server not in `tools`) is still only history.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { toFile } from 'openai';
import type { Response, ResponseInputItem, Tool } from 'openai/resources/responses/responses';
import type { CodeInterpreterPort, WebSearchPort } from '../../src/ports/tool-ports';
import { fakeMcp, type FakeMcp } from '../fakes/fake-mcp';
import { RecordingEngine } from '../fakes/recording-engine';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient;
let engine: RecordingEngine;
let mcp: FakeMcp;
const ran: string[] = [];
afterEach(() => closeAndCheck(local));

const python: CodeInterpreterPort = { run: async (code) => (ran.push(code), { logs: '4\n', images: [], error: null }) };
const web: WebSearchPort = {
  search: async (query) => (ran.push(query), [{ url: 'http://127.0.0.1:9/wiki/Paris', title: 'Paris', snippet: 'Capital of France' }]),
  openPage: async (url) => ({ url, title: 'Paris', text: 'Paris is the capital.' }),
  findInPage: async (url) => ({ url, matches: [] }),
};

async function setup() {
  engine = new RecordingEngine();
  mcp = fakeMcp();
  ran.length = 0;
  local = await localClient({ engine, tools: { codeInterpreter: python, webSearch: web, mcp }, files: true });
}

const model = 'test-scripted';
const call = (name: string, args: object) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
const lastPrompt = () => engine.requests.at(-1)!.input.prompt;
const calc = (extra: Partial<Tool.Mcp> = {}): Tool.Mcp => ({ type: 'mcp', server_label: 'calc', server_url: 'http://calc.test/mcp', require_approval: 'never', ...extra });

/** The next turn of a client that keeps its history: the last output and a new message, not stored. */
async function replay(first: Response, tools: Tool[]): Promise<Response> {
  const input = [...(first.output as unknown as ResponseInputItem[]), { role: 'user' as const, content: 'Thanks.' }];
  return local.client.responses.create({ model, input, tools, store: false });
}

describe('a turn that used a builtin tool, sent back as input', () => {
  test('code_interpreter_call: accepted, shown as the call and its output, not run again', async () => {
    await setup();
    const tools: Tool[] = [{ type: 'code_interpreter', container: { type: 'auto' } }];
    const first = await local.client.responses.create({ model, input: script([call('python', { code: 'print(2+2)' }), 'It is 4.']), tools, store: false, include: ['code_interpreter_call.outputs'] });
    expect(first.output.map((i) => i.type)).toEqual(['code_interpreter_call', 'message']);
    const next = await replay(first, tools);
    expect(next.output_text).toBe('You said: Thanks.');
    expect(ran).toEqual(['print(2+2)']);
    expect(lastPrompt()).toContain('print(2+2)');
    expect(lastPrompt()).toContain('4');
  });

  test('web_search_call: accepted and shown as the search it was', async () => {
    await setup();
    const tools: Tool[] = [{ type: 'web_search' }];
    // Sources are shown only when included (as on OpenAI): a client keeping its own history asks for them.
    const first = await local.client.responses.create({
      model,
      input: script([call('search', { query: 'capital of France' }), 'Paris.']),
      tools,
      store: false,
      include: ['web_search_call.action.sources'],
    });
    expect(first.output.map((i) => i.type)).toEqual(['web_search_call', 'message']);
    await replay(first, tools);
    expect(ran).toEqual(['capital of France']);
    expect(lastPrompt()).toContain('capital of France');
    expect(lastPrompt()).toContain('http://127.0.0.1:9/wiki/Paris');
  });

  test('mcp_list_tools and mcp_call: accepted; the replayed listing is reused, the call not made again', async () => {
    await setup();
    const tools: Tool[] = [calc()];
    const first = await local.client.responses.create({ model, input: script([call('calc__add', { a: 2, b: 3 }), 'It is 5.']), tools, store: false });
    expect(first.output.map((i) => i.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
    const next = await replay(first, tools);
    expect(next.output.map((i) => i.type)).toEqual(['message']);
    expect(mcp.lists).toHaveLength(1);
    expect(mcp.calls).toHaveLength(1);
    expect(lastPrompt()).toContain('calc__add');
  });

  test('mcp_approval_request: accepted, and answered in the same replayed input', async () => {
    await setup();
    const tools: Tool[] = [calc({ require_approval: 'always' })];
    const first = await local.client.responses.create({ model, input: script([call('calc__add', { a: 1, b: 1 }), 'Two.']), tools, store: false });
    expect(first.output.map((i) => i.type)).toEqual(['mcp_list_tools', 'mcp_approval_request']);
    const request = first.output[1] as { id: string };
    const input = [...(first.output as unknown as ResponseInputItem[]), { type: 'mcp_approval_response' as const, approval_request_id: request.id, approve: true }];
    const next = await local.client.responses.create({ model, input, tools, store: false });
    expect(next.output.map((i) => i.type)).toEqual(['mcp_call', 'message']);
    expect(mcp.calls.map((c) => c.name)).toEqual(['add']);
  });

  test('file_search_call: accepted and shown as which files it found', async () => {
    await setup();
    const store = await local.client.vectorStores.create({ name: 'kb' });
    await local.client.vectorStores.files.uploadAndPoll(store.id, await toFile(new TextEncoder().encode('Giraffes sleep two hours a day.'), 'giraffe.txt'), { pollIntervalMs: 5 });
    const tools: Tool[] = [{ type: 'file_search', vector_store_ids: [store.id] }];
    const first = await local.client.responses.create({ model, input: script([call('file_search', { queries: ['giraffe sleep'] }), 'Two hours [1].']), tools, store: false, include: ['file_search_call.results'] });
    expect(first.output.map((i) => i.type)).toEqual(['file_search_call', 'message']);
    await replay(first, tools);
    expect(lastPrompt()).toContain('passages from giraffe.txt were shown');
  });

  test('items naming what this runtime does not have are history only: a container it never made, a server not in tools', async () => {
    await setup();
    const input = [
      { type: 'code_interpreter_call', id: 'ci_elsewhere', status: 'completed', code: 'x = 1', container_id: 'cntr_from_elsewhere', outputs: null },
      { type: 'mcp_list_tools', id: 'mcpl_other', server_label: 'other', tools: [{ name: 'wipe', input_schema: {} }] },
      { type: 'mcp_call', id: 'mcp_other', server_label: 'other', name: 'wipe', arguments: '{}', status: 'completed', output: 'done', error: null, approval_request_id: null },
      { role: 'user', content: 'Hello again.' },
    ] as unknown as ResponseInputItem[];
    const next = await local.client.responses.create({ model, input, store: false });
    expect(next.output_text).toBe('You said: Hello again.');
    expect(ran).toEqual([]);
    expect(mcp.calls).toEqual([]);
    expect(mcp.lists).toEqual([]);
    expect(lastPrompt()).toContain('x = 1');
  });
});
