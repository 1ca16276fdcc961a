/**
 * The context items of openai 7.59 (issue 33, item 3), through the real `openai` SDK:
 * `additional_tools` (tools callable from that point on, in later turns too),
 * `configuration_update` (reasoning effort or text format from that point on) and
 * `compaction_trigger` (the response is the compaction of everything before it). Each is
 * accepted, applied, stored, listed, replayed; bad contents are 400s naming the param.
 */
import { afterEach, expect, test } from 'vitest';
import type { ResponseInputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { closeAndCheck, failed, localClient, script, type LocalClient } from '../support/local-client';
import { RecordingEngine } from '../fakes/recording-engine';
import { echoTool } from '../fakes/echo-tool';

let local: LocalClient;
afterEach(() => closeAndCheck(local));

const model = 'test-scripted';
const call = (name: string, args: object) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
const weather = { type: 'function' as const, name: 'get_weather', description: 'Weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false };
/** As a client may write it: no description, no strict (stored as a response echoes it: `description: null`, `strict: true`). */
const bare = { type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } as typeof weather;
const additional = (tools = [weather]): ResponseInputItem => ({ type: 'additional_tools', role: 'developer', tools });

test('additional_tools: callable from that point, stored and listed, still callable in a later turn of the chain', async () => {
  local = await localClient();
  // Without the item the model's call stays text: the tool is not known.
  const before = await local.client.responses.create({ model, input: script(call('get_weather', { city: 'Oslo' })) });
  expect(before.output.map((o) => o.type)).toEqual(['message']);

  const first = await local.client.responses.create({ model, input: [additional([bare]), { role: 'user', content: script(call('get_weather', { city: 'Oslo' })) }] });
  expect(first.output).toMatchObject([{ type: 'function_call', name: 'get_weather', arguments: '{"city":"Oslo"}' }]);
  expect(first.tools).toMatchObject([{ type: 'function', name: 'get_weather' }]);
  const listed = (await local.client.responses.inputItems.list(first.id, { order: 'asc' })).data;
  expect(listed[0]).toMatchObject({ type: 'additional_tools', role: 'developer', tools: [{ type: 'function', name: 'get_weather', description: null, strict: true }] });
  expect((listed[0] as { id: string }).id).toMatch(/^at_/);

  // A later turn of the chain, without `tools`: the tool is still callable.
  const fc = first.output[0] as { call_id: string };
  const second = await local.client.responses.create({
    model,
    previous_response_id: first.id,
    input: [{ type: 'function_call_output', call_id: fc.call_id, output: 'Sunny' }],
  });
  expect(second.status).toBe('completed');
  // A client that now also lists the tool in `tools` declares it once.
  const third = await local.client.responses.create({ model, previous_response_id: second.id, tools: [bare], input: script(call('get_weather', { city: 'Rome' })) });
  expect(third.output).toMatchObject([{ type: 'function_call', name: 'get_weather', arguments: '{"city":"Rome"}' }]);
  expect(third.tools).toMatchObject([{ type: 'function', name: 'get_weather' }]);
});

test('additional_tools in a conversation, streamed; replayed as input; tool_choice may name them', async () => {
  local = await localClient();
  const conversation = await local.client.conversations.create({ items: [additional()] });
  const events: ResponseStreamEvent[] = [];
  for await (const e of await local.client.responses.create({ model, conversation: conversation.id, input: script(call('get_weather', { city: 'Paris' })), stream: true, tool_choice: { type: 'function', name: 'get_weather' } }))
    events.push(e);
  const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
  expect(done.type).toBe('response.completed');
  expect(done.response.output).toMatchObject([{ type: 'function_call', name: 'get_weather' }]);
  const items = (await local.client.conversations.items.list(conversation.id, { order: 'asc' })).data;
  expect(items[0]).toMatchObject({ type: 'additional_tools', role: 'developer' });

  // A client that keeps its history sends the listed item back: accepted as it was returned.
  const replay = await local.client.responses.create({ model, input: [items[0] as ResponseInputItem, { role: 'user', content: script(call('get_weather', { city: 'Lima' })) }] });
  expect(replay.output).toMatchObject([{ type: 'function_call', name: 'get_weather', arguments: '{"city":"Lima"}' }]);
});

test('configuration_update: the effort and format from that point, in later turns too, until a later update', async () => {
  local = await localClient();
  const format = { type: 'json_schema' as const, name: 'city', schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, strict: true };
  const first = await local.client.responses.create({
    model,
    reasoning: { effort: 'low' },
    input: [{ type: 'configuration_update', reasoning: { effort: 'high' }, text: { format } }, { role: 'user', content: script('{"city":"Oslo"}') }],
  });
  expect(first.reasoning?.effort).toBe('high');
  expect(first.text?.format).toMatchObject({ type: 'json_schema', name: 'city' });
  const listed = (await local.client.responses.inputItems.list(first.id, { order: 'asc' })).data;
  expect(listed[0]).toMatchObject({ type: 'configuration_update', reasoning: { effort: 'high' }, text: { format: { type: 'json_schema', name: 'city' } } });

  const second = await local.client.responses.create({ model, previous_response_id: first.id, input: script('{"city":"Rome"}') });
  expect(second.reasoning?.effort).toBe('high');
  expect(second.text?.format).toMatchObject({ type: 'json_schema', name: 'city' });

  const third = await local.client.responses.create({ model, previous_response_id: second.id, input: [{ type: 'configuration_update', text: { format: { type: 'text' } } }, { role: 'user', content: 'plain' }] });
  expect(third.text?.format).toEqual({ type: 'text' });
  // Only the format changed: the effort stays.
  expect(third.reasoning?.effort).toBe('high');
});

test('compaction_trigger: the response is the compaction of the chain; the next turn is shown the summary; streamed too', async () => {
  local = await localClient();
  const first = await local.client.responses.create({ model, input: 'My name is Ada and I like ferns. ' + 'Ferns are old plants. '.repeat(100) });
  const compacted = await local.client.responses.create({ model, previous_response_id: first.id, input: [{ type: 'compaction_trigger' }] });
  expect(compacted.status).toBe('completed');
  expect(compacted.output.map((o) => o.type)).toEqual(['compaction']);
  expect(compacted.usage?.output_tokens).toBeGreaterThan(0);
  // Consumed: what stays of it is the compaction item (OpenAI's ResponseItem has no trigger item).
  expect((await local.client.responses.inputItems.list(compacted.id)).data).toEqual([]);
  expect((await local.client.responses.retrieve(compacted.id)).output.map((o) => o.type)).toEqual(['compaction']);

  const next = await local.client.responses.create({ model, previous_response_id: compacted.id, input: 'Continue' });
  expect(next.output_text).toBe('You said: Continue');
  // The prompt holds the summary, not the long first turn.
  const uncompacted = await local.client.responses.create({ model, previous_response_id: first.id, input: 'Continue' });
  expect(next.usage!.input_tokens).toBeLessThan(uncompacted.usage!.input_tokens);

  const events: ResponseStreamEvent[] = [];
  for await (const e of await local.client.responses.create({ model, stream: true, input: [{ role: 'user', content: 'Remember teal.' }, { type: 'compaction_trigger' }] })) events.push(e);
  expect(events.map((e) => e.type)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done', 'response.completed']);
});

test('invalid contents are 400s in OpenAI’s shape naming the param', async () => {
  local = await localClient();
  const cases: Array<[ResponseInputItem[], string]> = [
    [[{ type: 'additional_tools', role: 'developer', tools: [{ type: 'function', name: 'bad name!', parameters: {} } as never] }, { role: 'user', content: 'x' }], 'input[0].tools[0].name'],
    [[{ type: 'additional_tools', role: 'user', tools: [weather] } as never, { role: 'user', content: 'x' }], 'input[0].role'],
    [[{ type: 'additional_tools', role: 'developer', tools: [] }, { role: 'user', content: 'x' }], 'input[0].tools'],
    [[{ type: 'additional_tools', role: 'developer', tools: [{ type: 'no_such_tool' } as never] }, { role: 'user', content: 'x' }], 'input[0].tools[0].type'],
    [[{ role: 'user', content: 'x' }, { type: 'additional_tools', role: 'developer', tools: [{ ...weather, description: 'another' }] }], 'input[1].tools[0]'],
    [[{ type: 'configuration_update', reasoning: { effort: 'extreme' as never } }, { role: 'user', content: 'x' }], 'input[0].reasoning.effort'],
    [[{ type: 'configuration_update' }, { role: 'user', content: 'x' }], 'input[0].reasoning'],
    [[{ type: 'configuration_update', text: { format: { type: 'json_object' } as never } }, { role: 'user', content: 'x' }], 'input[0].text.format.type'],
    [[{ type: 'compaction_trigger' }, { role: 'user', content: 'x' }], 'input[0].type'],
    [[{ type: 'compaction_trigger' }], 'input'],
  ];
  for (const [input, param] of cases) {
    const tools = param === 'input[1].tools[0]' ? [weather] : undefined;
    const error = await failed(local.client.responses.create({ model, input, ...(tools ? { tools } : {}) }));
    expect({ status: error.status, param: (error.error as { param: string }).param, type: (error.error as { type: string }).type }, JSON.stringify(input)).toEqual({
      status: 400,
      param,
      type: 'invalid_request_error',
    });
  }
});

test('as conversation items: tools are checked as tools; a compaction_trigger is refused (it ends a response’s input)', async () => {
  local = await localClient();
  const badTool = await failed(local.client.conversations.create({ items: [{ type: 'additional_tools', role: 'developer', tools: [{ type: 'function', name: 'bad name!' } as never] }] }));
  expect({ status: badTool.status, param: (badTool.error as { param: string }).param }).toEqual({ status: 400, param: 'items[0].tools[0].name' });
  const conversation = await local.client.conversations.create({});
  const trigger = await failed(local.client.conversations.items.create(conversation.id, { items: [{ type: 'compaction_trigger' }] }));
  expect({ status: trigger.status, param: (trigger.error as { param: string }).param }).toEqual({ status: 400, param: 'items[0].type' });
  // A configuration update given to the conversation applies to its next turn.
  await local.client.conversations.items.create(conversation.id, { items: [{ type: 'configuration_update', reasoning: { effort: 'low' } }] });
  const turn = await local.client.responses.create({ model, conversation: conversation.id, input: 'Hi' });
  expect(turn.reasoning?.effort).toBe('low');
});

test('what the engine is asked for: the effort and JSON schema of an update; a plug-in tool declared by additional_tools runs', async () => {
  const engine = new RecordingEngine();
  const ran: string[] = [];
  local = await localClient({ engine, extraTools: [echoTool(ran)] });
  const format = { type: 'json_schema' as const, name: 'city', schema: { type: 'object', properties: { city: { type: 'string' } } }, strict: true };
  await local.client.responses.create({ model, input: [{ type: 'configuration_update', reasoning: { effort: 'high' }, text: { format } }, { role: 'user', content: script('{"city":"Oslo"}') }] });
  expect(engine.requests.at(-1)).toMatchObject({ reasoningEffort: 'high', jsonSchema: format.schema, jsonSchemaName: 'city' });

  // The SDK does not type a plug-in's entry: plain JSON to it.
  const echo = { type: 'echo', prefix: '>> ' } as never;
  const callEcho = `<tool_call>${JSON.stringify({ name: 'echo', arguments: { text: 'hi' } })}</tool_call>`;
  const first = await local.client.responses.create({ model, input: [{ type: 'additional_tools', role: 'developer', tools: [echo] }, { role: 'user', content: script([callEcho, 'Done.']) }] });
  expect(first.output.map((o) => o.type)).toEqual(['echo_call', 'message']);
  expect(ran).toEqual(['hi']);
  const bad = await failed(local.client.responses.create({ model, input: [{ type: 'additional_tools', role: 'developer', tools: [{ type: 'echo', prefix: 7 } as never] }, { role: 'user', content: 'x' }] }));
  expect((bad.error as { param: string }).param).toBe('input[0].tools[0].prefix');
});
