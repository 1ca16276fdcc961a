/**
 * The text-only families. Prompts are written out by hand from each model's own
 * `chat_template` (tokenizer_config.json):
 * - SmolLM2: HuggingFaceTB/SmolLM2-1.7B-Instruct — ChatML, default system message
 *   "You are a helpful AI assistant named SmolLM, trained by Hugging Face".
 * - Phi-3.5: microsoft/Phi-3.5-mini-instruct — `<|system|>\n…<|end|>\n`, system turn only
 *   when not empty, no BOS in the text.
 * - Gemma 2: google/gemma-2-2b-it — `<bos>`, `<start_of_turn>user|model\n…<end_of_turn>\n`,
 *   text trimmed; its missing system role handled as Gemma 3's template does (system text
 *   first in the first user turn, then a blank line).
 * Function calls and outputs in the history are shown as Hermes-style text, tools are not
 * described, and output that looks like a call stays text.
 */
import { describe, expect, it } from 'vitest';
import type { ConversationItem, RenderInput, ToolSpec } from './chat-format';
import { chatmlPlainFormat, smollm2Format } from './chatml-plain-format';
import { gemmaFormat } from './gemma-format';
import { phi3Format } from './phi3-format';
import { toPlainTextTurns } from './plain-text-turns';
import { parseEveryChunking, textEvent as text } from '../../test/support/stream-parser-harness';

const getWeather: ToolSpec = { name: 'get_weather', description: 'Get the weather.', parameters: { type: 'object' } };
const user = (value: string): ConversationItem => ({ type: 'message', role: 'user', text: value });
const assistant = (value: string): ConversationItem => ({ type: 'message', role: 'assistant', text: value });

const roundTrip: RenderInput = {
  instructions: 'You are a weather bot.',
  tools: [getWeather],
  items: [
    user('What is the weather in Paris?'),
    { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"location":"Paris"}' },
    { type: 'function_call_output', call_id: 'call_1', output: '{"temperature": 18}' },
    user('And in Tokyo?'),
  ],
};

const CALL = '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Paris"}}\n</tool_call>';
const OUTPUT = '<tool_response>\n{"temperature": 18}\n</tool_response>';

describe('chatmlPlainFormat / smollm2Format', () => {
  it('renders a function-call round trip as text, without describing tools', () => {
    const expected =
      '<|im_start|>system\nYou are a weather bot.<|im_end|>\n' +
      '<|im_start|>user\nWhat is the weather in Paris?<|im_end|>\n' +
      `<|im_start|>assistant\n${CALL}<|im_end|>\n` +
      `<|im_start|>user\n${OUTPUT}<|im_end|>\n` +
      '<|im_start|>user\nAnd in Tokyo?<|im_end|>\n' +
      '<|im_start|>assistant\n';
    expect(chatmlPlainFormat.render(roundTrip).prompt).toBe(expected);
    expect(smollm2Format.render(roundTrip).prompt).toBe(expected);
  });

  it("adds SmolLM2's default system message only for smollm2, only without a system message", () => {
    const input: RenderInput = { tools: [], items: [user('Hi')] };
    expect(smollm2Format.render(input).prompt).toBe(
      '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' +
        '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
    );
    expect(chatmlPlainFormat.render(input).prompt).toBe('<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n');
  });
});

describe('phi3Format', () => {
  it('renders a function-call round trip as text, without describing tools', () => {
    const { prompt, messages } = phi3Format.render(roundTrip);
    expect(prompt).toBe(
      '<|system|>\nYou are a weather bot.<|end|>\n' +
        '<|user|>\nWhat is the weather in Paris?<|end|>\n' +
        `<|assistant|>\n${CALL}<|end|>\n` +
        `<|user|>\n${OUTPUT}<|end|>\n` +
        '<|user|>\nAnd in Tokyo?<|end|>\n' +
        '<|assistant|>\n',
    );
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'user']);
  });

  it('leaves out an empty system message, as the template does', () => {
    const { prompt } = phi3Format.render({ tools: [], items: [{ type: 'message', role: 'system', text: '' }, user('Hi')] });
    expect(prompt).toBe('<|user|>\nHi<|end|>\n<|assistant|>\n');
  });
});

describe('gemmaFormat', () => {
  it('renders a function-call round trip as text, instructions first in the first user turn', () => {
    const { prompt, messages } = gemmaFormat.render(roundTrip);
    expect(prompt).toBe(
      '<bos><start_of_turn>user\nYou are a weather bot.\n\nWhat is the weather in Paris?<end_of_turn>\n' +
        `<start_of_turn>model\n${CALL}<end_of_turn>\n` +
        `<start_of_turn>user\n${OUTPUT}\n\nAnd in Tokyo?<end_of_turn>\n` +
        '<start_of_turn>model\n',
    );
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('trims text and keeps user/model alternating', () => {
    const { prompt } = gemmaFormat.render({
      tools: [],
      items: [user(' Hi \n'), assistant(' Hello! '), assistant('How can I help?'), user('Weather?')],
    });
    expect(prompt).toBe(
      '<bos><start_of_turn>user\nHi<end_of_turn>\n' +
        '<start_of_turn>model\nHello!\n\nHow can I help?<end_of_turn>\n' +
        '<start_of_turn>user\nWeather?<end_of_turn>\n' +
        '<start_of_turn>model\n',
    );
  });
});

describe('toPlainTextTurns', () => {
  it('puts calls after the assistant text they follow, groups outputs, and drops reasoning', () => {
    const turns = toPlainTextTurns({
      instructions: '',
      items: [
        user('Paris and Tokyo?'),
        { type: 'reasoning', text: 'Two calls.' },
        assistant('Checking.'),
        { type: 'function_call', call_id: 'a', name: 'get_weather', arguments: '{"location":"Paris"}' },
        { type: 'reasoning', text: 'And Tokyo.' },
        { type: 'function_call', call_id: 'b', name: 'get_weather', arguments: 'not json' },
        { type: 'function_call_output', call_id: 'a', output: '18' },
        { type: 'function_call_output', call_id: 'b', output: '24' },
        { type: 'message', role: 'developer', text: 'Be brief.' },
      ],
    });
    expect(turns).toEqual([
      { role: 'user', content: 'Paris and Tokyo?' },
      {
        role: 'assistant',
        content: `Checking.\n${CALL}\n<tool_call>\n{"name": "get_weather", "arguments": not json}\n</tool_call>`,
      },
      { role: 'user', content: '<tool_response>\n18\n</tool_response>\n<tool_response>\n24\n</tool_response>' },
      { role: 'system', content: 'Be brief.' },
    ]);
  });
});

describe('text-only parsers', () => {
  it.each([chatmlPlainFormat, smollm2Format, phi3Format, gemmaFormat])('$name keeps everything as text, calls and tags included', (format) => {
    const input =
      '<think>Hm.</think>{"name": "get_weather", "parameters": {}}\n<tool_call>\n{"name": "get_weather", "arguments": {}}\n</tool_call> 🌤️';
    const result = parseEveryChunking(() => format.createParser({ toolNames: new Set(['get_weather']), startInReasoning: true }), input);
    expect(result.events).toEqual([text(input)]);
    expect(result.reasoningSpans).toEqual([]);
  });
});
