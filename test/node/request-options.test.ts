/**
 * Options the popular clients send, accepted and honoured as OpenAI does (issue 13, item 4):
 * `text.verbosity`, `service_tier`, the prompt-cache options, stream obfuscation and
 * `tool_choice: allowed_tools`. The scripted model records what it is given.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { RecordingEngine } from '../fakes/recording-engine';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient;
let engine: RecordingEngine;
beforeEach(async () => {
  engine = new RecordingEngine();
  local = await localClient({ engine });
});
afterEach(() => closeAndCheck(local));

const model = 'test-scripted';
const lastPrompt = () => engine.requests.at(-1)!.input.prompt;

test('text.verbosity is echoed and reaches the model as an instruction (medium adds nothing)', async () => {
  const low = await local.client.responses.create({ model, input: 'hi', instructions: 'You are terse.', text: { verbosity: 'low' } });
  expect(low.text?.verbosity).toBe('low');
  expect(lastPrompt()).toContain('You are terse.');
  expect(lastPrompt()).toMatch(/Keep your final answer short/);

  const high = await local.client.responses.create({ model, input: 'hi', text: { verbosity: 'high' } });
  expect(high.text?.verbosity).toBe('high');
  expect(lastPrompt()).toMatch(/Give a thorough final answer/);

  const medium = await local.client.responses.create({ model, input: 'hi', text: { verbosity: 'medium' } });
  expect(medium.text?.verbosity).toBe('medium');
  expect(lastPrompt()).not.toMatch(/final answer/);
});

test('service_tier is accepted whatever it asks for; the response names the tier used', async () => {
  for (const tier of ['auto', 'flex', 'priority'] as const) {
    const response = await local.client.responses.create({ model, input: 'hi', service_tier: tier });
    expect(response.service_tier).toBe('default');
  }
});

test('prompt_cache_retention and prompt_cache_options are accepted', async () => {
  const response = await local.client.responses.create({
    model,
    input: 'hi',
    prompt_cache_key: 'chat-1',
    prompt_cache_retention: '24h',
    prompt_cache_options: { mode: 'implicit', ttl: '30m' },
  });
  expect(response.status).toBe('completed');
});

test('stream_options.include_obfuscation: true pads every delta event; without it there is no padding', async () => {
  const input = script('<think>hm</think>Hello there, friend.');
  const padded = await local.client.responses.create({ model, input, stream: true, stream_options: { include_obfuscation: true } });
  const deltas: Array<{ type: string; obfuscation?: string }> = [];
  for await (const event of padded) if (event.type.endsWith('.delta')) deltas.push(event as { type: string; obfuscation?: string });
  expect(deltas.map((d) => d.type)).toContain('response.output_text.delta');
  expect(deltas.map((d) => d.type)).toContain('response.reasoning_text.delta');
  expect(deltas.every((d) => typeof d.obfuscation === 'string' && d.obfuscation.length > 0)).toBe(true);

  const plain = await local.client.responses.create({ model, input, stream: true });
  for await (const event of plain) expect(event).not.toHaveProperty('obfuscation');
});

test('tool_choice allowed_tools: only the allowed tools are described; mode required asks for a call', async () => {
  const tools = [
    { type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: {} }, strict: false },
    { type: 'function' as const, name: 'send_mail', parameters: { type: 'object', properties: {} }, strict: false },
  ];
  const tool_choice = { type: 'allowed_tools' as const, mode: 'required' as const, tools: [{ type: 'function', name: 'get_weather' }] };
  const response = await local.client.responses.create({
    model,
    input: script('<tool_call>{"name":"get_weather","arguments":{}}</tool_call>'),
    tools,
    tool_choice,
  });
  expect(response.tool_choice).toEqual(tool_choice);
  expect(response.output.find((i) => i.type === 'function_call')).toMatchObject({ name: 'get_weather' });
  expect(lastPrompt()).toContain('get_weather');
  expect(lastPrompt()).not.toContain('send_mail');
  expect(engine.requests.at(-1)!.toolChoice).toBe('required');

  // A call of a tool that is defined but not allowed stays text, as for any tool the model was not given.
  const blocked = await local.client.responses.create({
    model,
    input: script('<tool_call>{"name":"send_mail","arguments":{}}</tool_call>'),
    tools,
    tool_choice: { ...tool_choice, mode: 'auto' },
  });
  expect(blocked.output.some((i) => i.type === 'function_call')).toBe(false);
  expect(engine.requests.at(-1)!.toolChoice).toBeUndefined();
});
