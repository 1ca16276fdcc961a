/**
 * KV-cache reuse across `previous_response_id` turns, through the real server and chat
 * formats, against the fake MLCEngine (which decides reuse the way web-llm 0.2.86 does:
 * `messages[:-1]` equal, string for string, to the conversation it holds).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { chatFormats } from '../../chat/chat-formats';
import { qwen3Format } from '../../chat/qwen3-format';
import { createResponsesServer } from '../../server/responses-server';
import { openIdbStore } from '../../store/idb-store';
import { FakeMLCEngine, type FakeReply } from '../../../test/fakes/fake-mlc-engine';
import { WebLlmEngine } from './engine';
import { callNamesIn, sameReply, withHeldReply } from './kv-reuse';

const QWEN25 = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
const QWEN3 = 'Qwen3-0.6B-q4f16_1-MLC';
const LIMITS = { maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 30, maxComputeWorkgroupStorageSize: 32768, maxStorageBuffersPerShaderStage: 10 };

interface Usage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
}
interface ResponseBody {
  id: string;
  status: string;
  output_text: string;
  output: Array<{ type: string; call_id?: string }>;
  usage: Usage;
}

async function setup() {
  const fake = new FakeMLCEngine();
  const engine = new WebLlmEngine({
    createEngine: async (config) => {
      fake.config = config;
      return fake;
    },
    detectGpu: async () => ({ usable: true, shaderF16: true, fallbackAdapter: false, adapter: {}, limits: LIMITS }),
    cacheApi: { hasModelInCache: async () => true, deleteBuild: async () => {} },
    storage: null,
  });
  const store = await openIdbStore({ name: `kv-reuse-${Date.now()}-${Math.random()}` });
  const server = await createResponsesServer({ store, engines: [engine], formats: chatFormats });
  const create = async (body: Record<string, unknown>): Promise<ResponseBody> => {
    const res = await server.fetch(new Request('http://local/v1/responses', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
    const json = (await res.json()) as ResponseBody;
    expect(res.status, JSON.stringify(json)).toBe(200);
    return json;
  };
  const reply = (r: FakeReply) => fake.replies.push(r);
  return { fake, server, create, reply };
}

describe('web-llm KV-cache reuse through /v1/responses', () => {
  it('plain-text chat: turn 2 prefills only the new message', async () => {
    const { fake, server, create, reply } = await setup();
    reply({ tokens: ['Hello', '!', ' How can I help?', '\n'], promptTokens: 20 });
    const turn1 = await create({ model: QWEN25, input: 'Hi', instructions: 'Be brief.' });
    expect(turn1.output_text).toBe('Hello! How can I help?\n');
    expect(turn1.usage.input_tokens_details.cached_tokens).toBe(0);

    reply({ tokens: ['Sure', '.'], promptTokens: 9 });
    const turn2 = await create({ model: QWEN25, input: 'Tell me a joke.', previous_response_id: turn1.id, instructions: 'Be brief.' });
    expect(fake.kvReused).toEqual([false, true]);
    // Plain text renders back exactly as the model wrote it: nothing to substitute.
    expect(fake.requests[1]!.messages[2]).toMatchObject({ role: 'assistant', content: 'Hello! How can I help?\n' });
    // KV after turn 1: 20 prompt tokens + 5 sampled (4 + the stop token) − 1 never fed back.
    expect(turn2.usage.input_tokens_details.cached_tokens).toBe(24);
    expect(turn2.usage.input_tokens).toBe(24 + 9);
    await server.close();
  });

  it('Qwen3 with reasoning: the dropped <think> block is restored from what web-llm holds', async () => {
    const { fake, server, create, reply } = await setup();
    reply({ tokens: ['<think>', '\nThe user', ' greets me.', '\n</think>', '\n\n', 'Hello', '!'], promptTokens: 12 });
    const turn1 = await create({ model: QWEN3, input: 'Hi' });
    expect(turn1.output.map((i) => i.type)).toEqual(['reasoning', 'message']);
    expect(turn1.output_text).toBe('\n\nHello!');

    // What the Qwen3 template alone would send: the earlier reasoning dropped.
    const items = [
      { type: 'message', role: 'user', text: 'Hi' },
      { type: 'reasoning', text: 'The user greets me.' },
      { type: 'message', role: 'assistant', text: turn1.output_text },
      { type: 'message', role: 'user', text: 'And you?' },
    ] as const;
    expect(qwen3Format.render({ items: [...items], tools: [] }).messages[1]!.content).toBe('\n\nHello!');

    reply({ tokens: ['<think>\nfine\n</think>\n\n', 'Fine.'], promptTokens: 8 });
    const turn2 = await create({ model: QWEN3, input: 'And you?', previous_response_id: turn1.id });
    expect(fake.kvReused).toEqual([false, true]);
    expect(fake.requests[1]!.messages[1]!.content).toBe('<think>\nThe user greets me.\n</think>\n\nHello!');
    expect(turn2.usage.input_tokens_details.cached_tokens).toBeGreaterThan(0);
    await server.close();
  });

  it('Qwen3 with thinking off: the empty think block web-llm inserted is restored', async () => {
    const { fake, server, create, reply } = await setup();
    reply({ tokens: ['Hello', '!'], promptTokens: 12 });
    const turn1 = await create({ model: QWEN3, input: 'Hi', reasoning: { effort: 'none' } });
    expect(turn1.output_text).toBe('Hello!');
    reply({ tokens: ['Fine.'], promptTokens: 8 });
    const turn2 = await create({ model: QWEN3, input: 'And you?', previous_response_id: turn1.id, reasoning: { effort: 'none' } });
    expect(fake.kvReused).toEqual([false, true]);
    expect(fake.requests[1]!.messages[1]!.content).toBe('<think>\n\n</think>\n\nHello!');
    expect(turn2.usage.input_tokens_details.cached_tokens).toBeGreaterThan(0);
    await server.close();
  });

  it('a function call the template re-serializes: the tool output turn reuses the cache', async () => {
    const { fake, server, create, reply } = await setup();
    const tools = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
    // Compact JSON: the template writes `{"name": "get_weather", "arguments": {"city": "Paris"}}`.
    reply({ tokens: ['<think>\nweather tool\n</think>\n\n', '<tool_call>\n{"name":"get_weather","arguments":{"city":"Paris"}}\n</tool_call>'], promptTokens: 60 });
    const turn1 = await create({ model: QWEN3, input: 'Weather in Paris?', tools });
    const call = turn1.output.find((i) => i.type === 'function_call');
    expect(call).toBeDefined();
    reply({ tokens: ['It is 18 °C.'], promptTokens: 15 });
    const turn2 = await create({
      model: QWEN3,
      tools,
      previous_response_id: turn1.id,
      input: [{ type: 'function_call_output', call_id: call!.call_id, output: '18 °C' }],
    });
    expect(fake.kvReused).toEqual([false, true]);
    expect(turn2.usage.input_tokens_details.cached_tokens).toBeGreaterThan(0);
    expect(turn2.output_text).toBe('It is 18 °C.');
    await server.close();
  });

  it('near the end of the context window the shorter template history is sent instead', async () => {
    const { fake, server, create, reply } = await setup();
    reply({ tokens: ['<think>\nlong thought\n</think>\n\n', 'Hello!'], promptTokens: 3900 });
    const turn1 = await create({ model: QWEN3, input: 'Hi' });
    reply({ tokens: ['Fine.'] });
    await create({ model: QWEN3, input: 'And you?', previous_response_id: turn1.id });
    expect(fake.requests[1]!.messages[1]!.content).toBe('\n\nHello!');
    expect(fake.kvReused).toEqual([false, false]);
    await server.close();
  });

  it('continuing another branch of the conversation does not borrow the reply web-llm holds', async () => {
    const { fake, server, create, reply } = await setup();
    reply({ tokens: ['Red', '.'] });
    const a = await create({ model: QWEN25, input: 'Name a color.' });
    reply({ tokens: ['Blue', '.'] });
    await create({ model: QWEN25, input: 'Name a color.' }); // web-llm now holds "Blue."
    reply({ tokens: ['Green', '.'] });
    const c = await create({ model: QWEN25, input: 'Another.', previous_response_id: a.id });
    expect(fake.requests[2]!.messages[1]).toMatchObject({ role: 'assistant', content: 'Red.' });
    expect(fake.kvReused).toEqual([false, false, false]);
    expect(c.usage.input_tokens_details.cached_tokens).toBe(0);
    await server.close();
  });
});

describe('sameReply / withHeldReply', () => {
  const names = new Set(['f']);
  it('same text and calls up to whitespace and JSON spacing; reasoning dropped or equal', () => {
    expect(sameReply(qwen3Format, names, 'Hello!', '<think>\nhm\n</think>\n\nHello!\n')).toBe(true);
    expect(sameReply(qwen3Format, names, '<think>\nhm\n</think>\n\nHello!', '<think>hm</think>Hello!')).toBe(true);
    expect(sameReply(qwen3Format, names, '<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>', '<tool_call>{"name":"f","arguments":{"a":1}}</tool_call>')).toBe(true);
    expect(sameReply(qwen3Format, names, 'Hello!', 'Hello?')).toBe(false);
    expect(sameReply(qwen3Format, names, '<think>\nother\n</think>\n\nHello!', '<think>\nhm\n</think>\n\nHello!')).toBe(false);
    expect(sameReply(qwen3Format, names, '<tool_call>\n{"name": "f", "arguments": {"a": 2}}\n</tool_call>', '<tool_call>{"name":"f","arguments":{"a":1}}</tool_call>')).toBe(false);
  });

  it('replaces only the turn right after the held history, when the rest matches exactly', () => {
    const held = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'RAW' },
    ];
    const same = () => true;
    expect(withHeldReply(held, [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'r' }, { role: 'user', content: 'n' }], same)).toEqual({
      messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'RAW' }, { role: 'user', content: 'n' }],
      substituted: true,
    });
    // A different earlier message, another length, or no held reply: unchanged.
    expect(withHeldReply(held, [{ role: 'user', content: 'Q' }, { role: 'assistant', content: 'r' }, { role: 'user', content: 'n' }], same).substituted).toBe(false);
    expect(withHeldReply(held, [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'r' }, { role: 'user', content: 'n' }, { role: 'user', content: 'm' }], same).substituted).toBe(false);
    expect(withHeldReply(null, [{ role: 'user', content: 'q' }], same).substituted).toBe(false);
    expect(withHeldReply(held, [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'r' }, { role: 'user', content: 'n' }], () => false).substituted).toBe(false);
  });
});

describe('callNamesIn', () => {
  it('finds the names of Hermes and Llama JSON calls, escapes included', () => {
    const hermes = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
    const llama = '{"name":"say \\"hi\\"","parameters":{}}';
    expect([...callNamesIn([hermes, llama, 'no call here'])]).toEqual(['get_weather', 'say "hi"']);
  });
});
