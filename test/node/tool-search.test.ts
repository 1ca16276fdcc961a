/**
 * Tool search (issue 33, items 1–3), through the real `openai` SDK: deferred tools
 * (`defer_loading: true`) are not shown to the model until `tool_search` loads them; run here,
 * the search writes a `tool_search_call` and a `tool_search_output` and the model calls what
 * it loaded in the same response; loaded tools stay loaded down the chain, in a conversation
 * and for a client replaying items; the prompt before a load is unchanged by it (the engine's
 * cached prefix survives). Run by the client, the call ends the response and the client's
 * `tool_search_output` loads the tools it names.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type OpenAI from 'openai';
import type { ResponseStreamEvent, Tool } from 'openai/resources/responses/responses';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';
import { RecordingEngine } from '../fakes/recording-engine';
import { openTestSocket, type Frame } from '../support/socket-client';

let local: LocalClient;
afterEach(() => closeAndCheck(local));

const model = 'test-scripted';
const call = (name: string, args: object) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
const fn = (name: string, description: string, defer = true): Tool => ({
  type: 'function',
  name,
  description,
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
  strict: false,
  ...(defer ? { defer_loading: true } : {}),
});
const tools: Tool[] = [
  { type: 'tool_search' },
  fn('echo_back', 'Repeat what the user said.', false),
  fn('get_weather', 'Current weather and forecast for a city.'),
  fn('send_email', 'Send an email message to a contact.'),
  fn('convert_currency', 'Convert an amount of money between currencies.'),
  {
    type: 'namespace',
    name: 'crm',
    description: 'Customer records.',
    tools: [{ type: 'function', name: 'find_customer', description: 'Look up a customer by name.', parameters: { type: 'object', properties: {} }, defer_loading: true }],
  },
];

type Item = OpenAI.Responses.ResponseOutputItem;
const types = (output: readonly Item[]) => output.map((i) => i.type);

describe('tool_search run here', () => {
  test('loads the best match, shown after the prompt so far; the model calls it in the same response; stored, listed, chained', async () => {
    const engine = new RecordingEngine();
    local = await localClient({ engine });
    const first = await local.client.responses.create({ model, tools, input: script([call('tool_search', { query: 'weather forecast' }), call('get_weather', { city: 'Oslo' }), 'Sunny in Oslo.']) });
    expect(types(first.output)).toEqual(['tool_search_call', 'tool_search_output', 'function_call']);
    const [searched, loaded, weather] = first.output as [Record<string, unknown>, Record<string, unknown>, OpenAI.Responses.ResponseFunctionToolCall];
    expect(searched).toEqual({ type: 'tool_search_call', id: expect.any(String), call_id: expect.any(String), execution: 'server', status: 'completed', arguments: { query: 'weather forecast' } });
    expect(loaded).toMatchObject({ type: 'tool_search_output', call_id: searched.call_id, execution: 'server', status: 'completed' });
    expect((loaded.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(['get_weather']);
    expect(weather).toMatchObject({ type: 'function_call', name: 'get_weather', arguments: '{"city":"Oslo"}' });

    // Round 1 never saw a deferred tool; round 2 saw round 1's prompt unchanged, then the loaded tool.
    const [round1, round2] = engine.requests.map((r) => r.input.prompt);
    const listedTools = (prompt: string) => prompt.slice(prompt.indexOf('<tools>\n'), prompt.indexOf('\n</tools>'));
    expect(listedTools(round1!)).toContain('"name": "tool_search"');
    expect(listedTools(round1!)).toContain('"name": "echo_back"');
    for (const hidden of ['get_weather', 'send_email', 'convert_currency', 'find_customer']) expect(listedTools(round1!)).not.toContain(hidden);
    expect(round2!.startsWith(round1!)).toBe(true);
    expect(round2!.slice(round1!.length)).toContain('Loaded 1 tool; call it like the others:\n{"type":"function","function":{"name":"get_weather"');
    expect(round2).not.toContain('send_email');

    // Next turn: the tool stays loaded (callable; still not in the leading tool list).
    const next = await local.client.responses.create({
      model,
      tools,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: weather.call_id, output: '{"sky":"clear"}' }],
    });
    expect(next.output_text).toBe('Sunny in Oslo.');
    const round3 = engine.requests.at(-1)!.input.prompt;
    expect(round3.startsWith(round2!)).toBe(true);
    expect(listedTools(round3)).toBe(listedTools(round1!));

    const listed = await local.client.responses.inputItems.list(first.id);
    expect(listed.data.map((i) => i.type)).toEqual(['message']);
    const again = await local.client.responses.retrieve(first.id);
    expect(types(again.output)).toEqual(['tool_search_call', 'tool_search_output', 'function_call']);
  });

  test('a chained turn calls a tool loaded earlier without searching again', async () => {
    local = await localClient();
    const first = await local.client.responses.create({ model, tools, input: script([call('tool_search', { query: 'email' }), 'Loaded.']) });
    expect(((first.output[1] as unknown as { tools: Array<{ name: string }> }).tools).map((t) => t.name)).toEqual(['send_email']);
    const next = await local.client.responses.create({ model, tools, previous_response_id: first.id, input: script([call('send_email', { to: 'a@b.c' })]) });
    expect(next.output).toMatchObject([{ type: 'function_call', name: 'send_email' }]);
    // Never loaded: its call stays text.
    const other = await local.client.responses.create({ model, tools, previous_response_id: first.id, input: script([call('convert_currency', {})]) });
    expect(types(other.output)).toEqual(['message']);
  });

  test('a namespace member loads as its namespace; its call carries the namespace', async () => {
    local = await localClient();
    const response = await local.client.responses.create({ model, tools, input: script([call('tool_search', { query: 'customer' }), call('crm__find_customer', { name: 'Ada' })]) });
    expect((response.output[1] as unknown as { tools: unknown[] }).tools).toEqual([
      { type: 'namespace', name: 'crm', description: 'Customer records.', tools: [{ type: 'function', name: 'find_customer', description: 'Look up a customer by name.', parameters: { type: 'object', properties: {} }, defer_loading: true }] },
    ]);
    expect(response.output[2]).toMatchObject({ type: 'function_call', name: 'find_customer', namespace: 'crm' });
  });

  test('streamed: both items announced added and done, in order; a search that matches nothing loads nothing', async () => {
    local = await localClient();
    const events: ResponseStreamEvent[] = [];
    const stream = await local.client.responses.create({ model, tools, stream: true, input: script([call('tool_search', { query: 'zzzz qqqq' }), 'Nothing found.']) });
    for await (const e of stream) events.push(e);
    const announced = events.flatMap((e) => (e.type === 'response.output_item.added' || e.type === 'response.output_item.done' ? [`${e.type.slice(21)}:${e.item.type}:${(e.item as { status?: string }).status}`] : []));
    expect(announced.slice(0, 4)).toEqual(['added:tool_search_call:in_progress', 'done:tool_search_call:completed', 'added:tool_search_output:completed', 'done:tool_search_output:completed']);
    const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
    expect((done.response.output[1] as unknown as { tools: unknown[] }).tools).toEqual([]);
    expect(done.response.output_text).toBe('Nothing found.');
  });

  test('a client replaying the items statelessly keeps the tool loaded; the items are accepted as input and listed', async () => {
    local = await localClient();
    const asked = script([call('tool_search', { query: 'currency' }), call('convert_currency', { amount: 3 }), 'Done.']);
    const first = await local.client.responses.create({ model, tools, store: false, input: asked });
    expect(types(first.output)).toEqual(['tool_search_call', 'tool_search_output', 'function_call']);
    const fc = first.output[2] as OpenAI.Responses.ResponseFunctionToolCall;
    const replay = await local.client.responses.create({
      model,
      tools,
      input: [{ role: 'user', content: asked }, ...(first.output as never[]), { type: 'function_call_output', call_id: fc.call_id, output: '2.79 EUR' }],
    });
    expect(replay.output_text).toBe('Done.');
    const listed = await local.client.responses.inputItems.list(replay.id, { order: 'asc' });
    expect(listed.data.map((i) => i.type)).toEqual(['message', 'tool_search_call', 'tool_search_output', 'function_call', 'function_call_output']);
    expect(listed.data[2]).toMatchObject({ type: 'tool_search_output', execution: 'server', tools: [{ type: 'function', name: 'convert_currency' }] });
  });

  test('in a conversation, loaded tools stay loaded for later turns', async () => {
    local = await localClient();
    const conversation = await local.client.conversations.create();
    await local.client.responses.create({ model, tools, conversation: conversation.id, input: script([call('tool_search', { query: 'weather' }), 'Ready.']) });
    const later = await local.client.responses.create({ model, tools, conversation: conversation.id, input: script([call('get_weather', { city: 'Rome' })]) });
    expect(later.output).toMatchObject([{ type: 'function_call', name: 'get_weather' }]);
    const items = await local.client.conversations.items.list(conversation.id, { order: 'asc' });
    expect(items.data.map((i) => i.type)).toContain('tool_search_output');
  });
});

describe('over the WebSocket', () => {
  test('store: false on one connection: the search and the loaded call, then a chained turn (the connection’s cache) still has the tool loaded', async () => {
    local = await localClient();
    const socket = openTestSocket(local.server);
    const output = (frames: Frame[]) => (frames.at(-1)!.response as { id: string; output: Array<{ type: string; name?: string; call_id?: string }> });
    const first = await socket.create({ model, store: false, tools, input: script([call('tool_search', { query: 'weather' }), call('get_weather', { city: 'Oslo' })]) });
    expect(first.at(-1)!.type).toBe('response.completed');
    expect(first.filter((f) => f.type === 'response.output_item.done').map((f) => (f.item as { type: string }).type)).toEqual(['tool_search_call', 'tool_search_output', 'function_call']);
    const fc = output(first).output[2]!;
    const second = await socket.create({ model, store: false, tools, previous_response_id: output(first).id, input: [{ type: 'function_call_output', call_id: fc.call_id, output: 'clear' }, { role: 'user', content: script([call('get_weather', { city: 'Rome' })]) }] });
    expect(output(second).output).toMatchObject([{ type: 'function_call', name: 'get_weather' }]);
  });
});

describe('tool_search run by the client', () => {
  const clientSearch: Tool = {
    type: 'tool_search',
    execution: 'client',
    description: 'Find tools in the app catalog.',
    parameters: { type: 'object', properties: { goal: { type: 'string' } }, required: ['goal'] },
  };

  test('the call ends the response; the client’s tool_search_output makes its tools callable from then on', async () => {
    const engine = new RecordingEngine();
    local = await localClient({ engine });
    const first = await local.client.responses.create({ model, tools: [clientSearch], input: script([call('tool_search', { goal: 'translate' }), call('translate', { text: 'hei' }), 'Hello.']) });
    expect(first.output).toEqual([{ type: 'tool_search_call', id: expect.any(String), call_id: expect.any(String), execution: 'client', status: 'completed', arguments: { goal: 'translate' } }]);
    expect(engine.requests[0]!.input.prompt).toContain('Find tools in the app catalog.');
    const callId = (first.output[0] as unknown as { call_id: string }).call_id;
    const translate = { type: 'function' as const, name: 'translate', description: 'Translate text to English.', parameters: { type: 'object', properties: { text: { type: 'string' } } }, strict: false };
    const next = await local.client.responses.create({
      model,
      tools: [clientSearch],
      previous_response_id: first.id,
      input: [{ type: 'tool_search_output', call_id: callId, tools: [translate] }],
    });
    expect(next.output).toMatchObject([{ type: 'function_call', name: 'translate', arguments: '{"text":"hei"}' }]);
    const listed = await local.client.responses.inputItems.list(next.id);
    expect(listed.data[0]).toMatchObject({ type: 'tool_search_output', call_id: callId, execution: 'client', tools: [translate] });
  });

  test('streamed over HTTP: the call is announced added and done', async () => {
    local = await localClient();
    const events: ResponseStreamEvent[] = [];
    for await (const e of await local.client.responses.create({ model, tools: [clientSearch], stream: true, input: script([call('tool_search', { goal: 'x' })]) })) events.push(e);
    expect(events.filter((e) => e.type === 'response.output_item.done').map((e) => (e as { item: { type: string; execution: string } }).item)).toMatchObject([{ type: 'tool_search_call', execution: 'client' }]);
    expect(events.at(-1)!.type).toBe('response.completed');
  });

  test('an output must answer a search call of the conversation', async () => {
    local = await localClient();
    const error = await local.client.responses
      .create({ model, tools: [clientSearch], input: [{ role: 'user', content: 'hi' }, { type: 'tool_search_output', call_id: 'call_nope', tools: [] }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, param: 'input[1].call_id' });
  });
});

describe('requests refused', () => {
  test('tool_search run here with no deferred tools: a 400 naming it', async () => {
    local = await localClient();
    const error = await local.client.responses.create({ model, input: 'hi', tools: [fn('a', 'b', false), { type: 'tool_search' }] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, param: 'tools[1]' });
    expect((error as Error).message).toContain('no deferred tools');
  });

  test('deferred tools with no tool_search: a 400 naming the first', async () => {
    local = await localClient();
    const error = await local.client.responses.create({ model, input: 'hi', tools: [fn('a', 'b', false), fn('c', 'd')] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, param: 'tools[1].defer_loading' });
    const member = await local.client.responses.create({ model, input: 'hi', tools: [tools[5]!] }).catch((e: unknown) => e);
    expect(member).toMatchObject({ status: 400, param: 'tools[0].tools[0].defer_loading' });
  });

  test('two tool_search entries: a 400 naming the second', async () => {
    local = await localClient();
    const error = await local.client.responses.create({ model, input: 'hi', tools: [...tools, { type: 'tool_search', execution: 'client' }] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, param: `tools[${tools.length}]` });
  });

  test('a loaded tool of a type a search cannot load is a 400', async () => {
    local = await localClient();
    const error = await local.client.responses
      .create({ model, tools: [{ type: 'tool_search', execution: 'client' }], input: [{ role: 'user', content: 'hi' }, { type: 'tool_search_output', tools: [{ type: 'web_search' }] }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400 });
    expect((error as { param: string }).param).toMatch(/^input\[1\]/);
  });
});
