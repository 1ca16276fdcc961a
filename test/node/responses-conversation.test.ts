/** previous_response_id chains, function tools, reasoning, structured output, input items. */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { zodTextFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient;
beforeEach(async () => {
  local = await localClient();
});
afterEach(() => closeAndCheck(local));

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};
const weatherScript = script(['<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>', 'It is sunny in Paris.']);

describe('function tools', () => {
  test('a call streams as added → arguments delta → done → item done, then the output continues the chain', async () => {
    const stream = await local.client.responses.create({ model: 'test-scripted', input: weatherScript, tools: [weatherTool], stream: true });
    const events: ResponseStreamEvent[] = [];
    for await (const e of stream) events.push(e);
    const types = events.map((e) => e.type);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
    const call = done.response.output[0];
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' });
    if (call?.type !== 'function_call') throw new Error('expected a function call');
    const added = events[2] as Extract<ResponseStreamEvent, { type: 'response.output_item.added' }>;
    expect(added.item.id).toBe(call.id);

    const second = await local.client.responses.create({
      model: 'test-scripted',
      previous_response_id: done.response.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"sky":"clear"}' }],
      tools: [weatherTool],
    });
    expect(second.output_text).toBe('It is sunny in Paris.');
    expect(second.previous_response_id).toBe(done.response.id);
  });

  test('a call of a tool the request does not enable stays text', async () => {
    const r = await local.client.responses.create({ model: 'test-scripted', input: weatherScript });
    expect(r.output[0]?.type).toBe('message');
    expect(r.output_text).toContain('<tool_call>');
  });

  test('parallel calls, and parallel_tool_calls: false keeps only the first', async () => {
    const two = script('<tool_call>{"name":"get_weather","arguments":{"city":"A"}}</tool_call><tool_call>{"name":"get_weather","arguments":{"city":"B"}}</tool_call>');
    const r = await local.client.responses.create({ model: 'test-scripted', input: two, tools: [weatherTool] });
    expect(r.output.map((o) => o.type)).toEqual(['function_call', 'function_call']);
    const one = await local.client.responses.create({ model: 'test-scripted', input: two, tools: [weatherTool], parallel_tool_calls: false });
    expect(one.output.map((o) => o.type)).toEqual(['function_call']);
  });

  test('function_call_output with an unknown call_id is a 400', async () => {
    await expect(
      local.client.responses.create({ model: 'test-scripted', input: [{ type: 'function_call_output', call_id: 'call_nope', output: 'x' }] }),
    ).rejects.toMatchObject({ status: 400, param: 'input[0].call_id' });
  });
});

describe('previous_response_id', () => {
  test('the model sees prior input and output then the new input; instructions are not carried', async () => {
    const first = await local.client.responses.create({ model: 'test-scripted', input: 'first question', instructions: 'SYSTEM-ONE' });
    const second = await local.client.responses.create({ model: 'test-scripted', input: 'second question', previous_response_id: first.id });
    const third = await local.client.responses.create({ model: 'test-scripted', input: 'third question', previous_response_id: second.id, instructions: 'SYSTEM-THREE' });
    expect(third.output_text).toBe('You said: third question');
    expect(third.instructions).toBe('SYSTEM-THREE');
    // Input tokens grow with the chain: each turn's prompt holds all earlier turns.
    expect(second.usage!.input_tokens).toBeGreaterThan(first.usage!.input_tokens);
    expect(third.usage!.input_tokens).toBeGreaterThan(second.usage!.input_tokens);
  });

  test('unknown previous_response_id is a 404', async () => {
    await expect(
      local.client.responses.create({ model: 'test-scripted', input: 'x', previous_response_id: 'resp_missing' }),
    ).rejects.toMatchObject({ status: 404, param: 'previous_response_id' });
  });
});

describe('reasoning', () => {
  test('<think> becomes a reasoning item streamed with reasoning_text events and counted', async () => {
    const input = script('<think>Let me add 2 and 2.</think>The answer is 4.', { chunk: 3 });
    const stream = await local.client.responses.create({ model: 'test-scripted', input, stream: true });
    const events: ResponseStreamEvent[] = [];
    for await (const e of stream) events.push(e);
    const reasoning = events.filter((e) => e.type === 'response.reasoning_text.delta').map((e) => (e as { delta: string }).delta).join('');
    expect(reasoning).toBe('Let me add 2 and 2.');
    expect(events.map((e) => e.type)).toContain('response.reasoning_text.done');
    const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
    const [item, message] = done.response.output;
    expect(item).toMatchObject({ type: 'reasoning', content: [{ type: 'reasoning_text', text: 'Let me add 2 and 2.' }] });
    expect(message).toMatchObject({ type: 'message', content: [{ type: 'output_text', text: 'The answer is 4.' }] });
    // '<think>Let me add 2 and 2.</think>' is 34 chars: chunks 0..11 overlap it (12 of 3 chars = 36 > 34).
    expect(done.response.usage?.output_tokens_details.reasoning_tokens).toBe(12);
    expect(done.response.usage?.output_tokens).toBe(Math.ceil(input.length && '<think>Let me add 2 and 2.</think>The answer is 4.'.length / 3));
  });
});

describe('structured output', () => {
  test('responses.parse with zodTextFormat', async () => {
    const Weather = z.object({ city: z.string(), celsius: z.number() });
    const r = await local.client.responses.parse({
      model: 'test-scripted',
      input: script('{"city":"Oslo","celsius":-3}'),
      text: { format: zodTextFormat(Weather, 'weather') },
    });
    expect(r.output_parsed).toEqual({ city: 'Oslo', celsius: -3 });
    expect(r.text?.format).toMatchObject({ type: 'json_schema', name: 'weather' });
  });

  test('the responses.stream() helper gives the final response', async () => {
    const runner = local.client.responses.stream({ model: 'test-scripted', input: 'streamed helper' });
    let deltas = '';
    runner.on('response.output_text.delta', (e) => (deltas += e.delta));
    const final = await runner.finalResponse();
    expect(final.output_text).toBe('You said: streamed helper');
    expect(deltas).toBe('You said: streamed helper');
  });
});

describe('input items', () => {
  test('paginate with after, limit, order, first_id, last_id, has_more', async () => {
    const input = Array.from({ length: 7 }, (_, i) => ({ role: 'user' as const, content: `m${i}` }));
    const r = await local.client.responses.create({ model: 'test-scripted', input });
    const page1 = await local.client.responses.inputItems.list(r.id, { limit: 3 });
    const texts = (p: typeof page1) => p.data.map((i) => (i.type === 'message' && i.content[0]?.type === 'input_text' ? i.content[0].text : '?'));
    expect(texts(page1)).toEqual(['m6', 'm5', 'm4']);
    expect(page1.has_more).toBe(true);
    // The SDK's page object keeps only data/has_more; first_id/last_id are read from the raw body.
    const raw = await (await local.http(`/v1/responses/${r.id}/input_items?limit=3`)).json();
    expect(raw).toMatchObject({ object: 'list', first_id: page1.data[0]?.id, last_id: page1.data[2]?.id, has_more: true });
    const page2 = await local.client.responses.inputItems.list(r.id, { limit: 3, after: raw.last_id });
    expect(texts(page2)).toEqual(['m3', 'm2', 'm1']);
    const asc = await local.client.responses.inputItems.list(r.id, { order: 'asc', limit: 100 });
    expect(texts(asc)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6']);
    expect(asc.has_more).toBe(false);
    // The SDK's auto-pagination walks every page.
    const all: string[] = [];
    for await (const item of local.client.responses.inputItems.list(r.id, { limit: 2 })) all.push(item.id);
    expect(all).toHaveLength(7);
  });

  test('item_reference resolves a stored item', async () => {
    const a = await local.client.responses.create({ model: 'test-scripted', input: 'remember me' });
    const items = await local.client.responses.inputItems.list(a.id);
    const ref = items.data[0]!.id;
    const b = await local.client.responses.create({ model: 'test-scripted', input: [{ type: 'item_reference', id: ref }] });
    expect(b.output_text).toBe('You said: remember me');
    await expect(
      local.client.responses.create({ model: 'test-scripted', input: [{ type: 'item_reference', id: 'msg_nope' }] }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
