/**
 * Prompts written out by hand from the Qwen2.5-Instruct chat template (tokenizer_config.json),
 * plus Qwen3's handling of reasoning in the current tool loop.
 */
import { describe, expect, it } from 'vitest';
import type { ConversationItem, ToolSpec } from './chat-format';
import { qwenFormat } from './qwen-format';

const getWeather: ToolSpec = {
  name: 'get_weather',
  description: 'Get the current weather in a location.',
  parameters: {
    type: 'object',
    properties: { location: { type: 'string', description: 'City name' } },
    required: ['location'],
  },
};

const TOOLS_BLOCK = [
  '# Tools',
  '',
  'You may call one or more functions to assist with the user query.',
  '',
  'You are provided with function signatures within <tools></tools> XML tags:',
  '<tools>',
  '{"type": "function", "function": {"name": "get_weather", "description": "Get the current weather in a location.", "parameters": {"type": "object", "properties": {"location": {"type": "string", "description": "City name"}}, "required": ["location"]}}}',
  '</tools>',
  '',
  'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:',
  '<tool_call>',
  '{"name": <function-name>, "arguments": <args-json-object>}',
  '</tool_call>',
].join('\n');

const user = (text: string): ConversationItem => ({ type: 'message', role: 'user', text });
const assistant = (text: string): ConversationItem => ({ type: 'message', role: 'assistant', text });
const reasoning = (text: string): ConversationItem => ({ type: 'reasoning', text });
const weatherCall = (callId: string, location: string): ConversationItem => ({
  type: 'function_call',
  call_id: callId,
  name: 'get_weather',
  arguments: JSON.stringify({ location }),
});
const output = (callId: string, text: string): ConversationItem => ({
  type: 'function_call_output',
  call_id: callId,
  output: text,
});

describe('qwenFormat.render', () => {
  it('renders instructions, tools, a function-call round trip and a new question', () => {
    const { prompt, messages } = qwenFormat.render({
      instructions: 'You are a weather bot.',
      tools: [getWeather],
      items: [
        user('What is the weather in Paris?'),
        weatherCall('call_1', 'Paris'),
        output('call_1', '{"temperature": 18, "unit": "celsius"}'),
        user('And in Tokyo?'),
      ],
    });
    expect(prompt).toBe(
      [
        '<|im_start|>system',
        'You are a weather bot.',
        '',
        TOOLS_BLOCK + '<|im_end|>',
        '<|im_start|>user',
        'What is the weather in Paris?<|im_end|>',
        '<|im_start|>assistant',
        '<tool_call>',
        '{"name": "get_weather", "arguments": {"location": "Paris"}}',
        '</tool_call><|im_end|>',
        '<|im_start|>user',
        '<tool_response>',
        '{"temperature": 18, "unit": "celsius"}',
        '</tool_response><|im_end|>',
        '<|im_start|>user',
        'And in Tokyo?<|im_end|>',
        '<|im_start|>assistant',
        '',
      ].join('\n'),
    );
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'user']);
    expect(messages[3]?.content).toBe('<tool_response>\n{"temperature": 18, "unit": "celsius"}\n</tool_response>');
  });

  it('keeps reasoning of the current tool loop only, and groups parallel calls and their outputs', () => {
    const { prompt } = qwenFormat.render({
      instructions: null,
      tools: [],
      items: [
        user('Hi'),
        reasoning('\nA greeting.\n'),
        assistant('Hello!'),
        user('Weather in Paris and Tokyo?'),
        reasoning('\nTwo cities, two calls.\n'),
        weatherCall('call_1', 'Paris'),
        weatherCall('call_2', 'Tokyo'),
        output('call_1', '18 °C'),
        output('call_2', '24 °C'),
        reasoning('Both known.'),
        assistant('\n\nParis: 18 °C, Tokyo: 24 °C.'),
      ],
    });
    expect(prompt).toBe(
      [
        '<|im_start|>user',
        'Hi<|im_end|>',
        '<|im_start|>assistant',
        'Hello!<|im_end|>',
        '<|im_start|>user',
        'Weather in Paris and Tokyo?<|im_end|>',
        '<|im_start|>assistant',
        '<think>',
        'Two cities, two calls.',
        '</think>',
        '',
        '<tool_call>',
        '{"name": "get_weather", "arguments": {"location": "Paris"}}',
        '</tool_call>',
        '<tool_call>',
        '{"name": "get_weather", "arguments": {"location": "Tokyo"}}',
        '</tool_call><|im_end|>',
        '<|im_start|>user',
        '<tool_response>',
        '18 °C',
        '</tool_response>',
        '<tool_response>',
        '24 °C',
        '</tool_response><|im_end|>',
        '<|im_start|>assistant',
        '<think>',
        'Both known.',
        '</think>',
        '',
        'Paris: 18 °C, Tokyo: 24 °C.<|im_end|>',
        '<|im_start|>assistant',
        '',
      ].join('\n'),
    );
  });

  it('merges assistant text and the calls that follow into one turn', () => {
    const { messages } = qwenFormat.render({
      tools: [getWeather],
      items: [user('Paris?'), assistant('Let me check.'), weatherCall('call_1', 'Paris'), assistant('Done.')],
    });
    expect(messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: 'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"location": "Paris"}}\n</tool_call>',
      },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('uses the Qwen2.5 default system message only when tools need a system message', () => {
    const withTools = qwenFormat.render({ tools: [getWeather], items: [user('Hi')] });
    expect(withTools.messages[0]).toEqual({
      role: 'system',
      content: `You are Qwen, created by Alibaba Cloud. You are a helpful assistant.\n\n${TOOLS_BLOCK}`,
    });

    const withoutTools = qwenFormat.render({ tools: [], items: [user('Hi')] });
    expect(withoutTools.prompt).toBe('<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n');
  });

  it('renders developer messages as system and appends tools to a leading one', () => {
    const { messages } = qwenFormat.render({
      tools: [getWeather],
      items: [
        { type: 'message', role: 'developer', text: 'Answer in French.' },
        user('Hi'),
        { type: 'message', role: 'system', text: 'Be brief.' },
      ],
    });
    expect(messages).toEqual([
      { role: 'system', content: `Answer in French.\n\n${TOOLS_BLOCK}` },
      { role: 'user', content: 'Hi' },
      { role: 'system', content: 'Be brief.' },
    ]);
  });

  it('leaves out absent tool fields and shows arguments that are not JSON unchanged', () => {
    const { prompt } = qwenFormat.render({
      tools: [{ name: 'now', description: null }],
      items: [user('Time?'), { type: 'function_call', call_id: 'c', name: 'now', arguments: '{oops' }],
    });
    expect(prompt).toContain('<tools>\n{"type": "function", "function": {"name": "now"}}\n</tools>');
    expect(prompt).toContain('<tool_call>\n{"name": "now", "arguments": {oops}\n</tool_call>');
  });
});

describe('qwenFormat.createParser', () => {
  it('parses what the model writes', () => {
    const parser = qwenFormat.createParser({ toolNames: new Set(['get_weather']) });
    const events = [
      ...parser.push('<think>\nParis.\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"location": "Paris"}}\n'),
      ...parser.push('</tool_call>'),
      ...parser.end(),
    ];
    expect(events).toEqual([
      { type: 'reasoning', text: '\nParis.\n' },
      { type: 'reasoning_done' },
      { type: 'text', text: '\n\n' },
      { type: 'tool_call', name: 'get_weather', arguments: '{"location":"Paris"}' },
    ]);
  });
});
