/**
 * Qwen3. Prompts are written out by hand from the `chat_template` of Qwen/Qwen3-8B's
 * tokenizer_config.json (the same template as Qwen3-0.6B's, copied in llama.cpp
 * `models/templates/Qwen-Qwen3-0.6B.jinja`); the output is written as the Qwen3 model card
 * shows thinking-mode output, then a Hermes tool call.
 */
import { describe, expect, it } from 'vitest';
import type { ConversationItem, RenderInput, ToolSpec } from './chat-format';
import { qwen3Format } from './qwen3-format';
import { qwenFormat } from './qwen-format';
import {
  parseEveryChunking,
  reasoningDone as done,
  reasoningEvent as reasoning,
  textEvent as text,
  toolCallEvent as call,
} from '../../test/support/stream-parser-harness';

const getWeather: ToolSpec = {
  name: 'get_weather',
  description: 'Get the current weather in a location.',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
};

const TOOLS_BLOCK = [
  '# Tools',
  '',
  'You may call one or more functions to assist with the user query.',
  '',
  'You are provided with function signatures within <tools></tools> XML tags:',
  '<tools>',
  '{"type": "function", "function": {"name": "get_weather", "description": "Get the current weather in a location.", "parameters": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}}}',
  '</tools>',
  '',
  'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:',
  '<tool_call>',
  '{"name": <function-name>, "arguments": <args-json-object>}',
  '</tool_call>',
].join('\n');

const user = (text: string): ConversationItem => ({ type: 'message', role: 'user', text });

const roundTrip: RenderInput = {
  instructions: 'You are a weather bot.',
  tools: [getWeather],
  items: [
    user('What is the weather in Paris?'),
    { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"location":"Paris"}' },
    { type: 'function_call_output', call_id: 'call_1', output: '{"temperature": 18, "unit": "celsius"}' },
    user('And in Tokyo?'),
  ],
};

const ROUND_TRIP_TURNS = [
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
].join('\n');

describe('qwen3Format.render', () => {
  it('renders a function-call round trip with thinking switched off', () => {
    const { prompt, messages } = qwen3Format.render({ ...roundTrip, enableThinking: false });
    expect(prompt).toBe(`${ROUND_TRIP_TURNS}<think>\n\n</think>\n\n`);
    expect(messages).toEqual(qwenFormat.render(roundTrip).messages);
  });

  it('leaves the generation prompt open when thinking is on or not chosen', () => {
    expect(qwen3Format.render({ ...roundTrip, enableThinking: true }).prompt).toBe(ROUND_TRIP_TURNS);
    expect(qwen3Format.render(roundTrip).prompt).toBe(ROUND_TRIP_TURNS);
  });

  it('writes the tool block alone when there is no system message (no Qwen2.5 default)', () => {
    const { prompt } = qwen3Format.render({ tools: [getWeather], items: [user('Hi')], enableThinking: false });
    expect(prompt).toBe(
      `<|im_start|>system\n${TOOLS_BLOCK}<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n`,
    );
  });

  it('keeps a developer message as the system message that carries the tools', () => {
    const { messages } = qwen3Format.render({
      tools: [getWeather],
      items: [{ type: 'message', role: 'developer', text: 'Answer in French.' }, user('Hi')],
    });
    expect(messages[0]).toEqual({ role: 'system', content: `Answer in French.\n\n${TOOLS_BLOCK}` });
  });

  it('renders like qwen without tools', () => {
    const input: RenderInput = { tools: [], items: [user('Hi')] };
    expect(qwen3Format.render(input)).toEqual(qwenFormat.render(input));
  });
});

describe('qwen3Format.createParser', () => {
  it('reads thinking, then a tool call, split at every position', () => {
    const input =
      '<think>\nThe user wants the weather in Tokyo. I should call get_weather.\n</think>\n\n' +
      '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Tokyo"}}\n</tool_call>';
    const result = parseEveryChunking(() => qwen3Format.createParser({ toolNames: new Set(['get_weather']) }), input);
    expect(result.events).toEqual([
      reasoning('\nThe user wants the weather in Tokyo. I should call get_weather.\n'),
      done,
      text('\n\n'),
      call('get_weather', { location: 'Tokyo' }),
    ]);
  });
});
