/**
 * Llama 3.1 / 3.2 Instruct. Prompts are written out by hand from the `chat_template` of
 * meta-llama/Llama-3.2-3B-Instruct's tokenizer_config.json (llama.cpp's copy in
 * `models/templates/`). Model outputs are written as the Llama 3.1 model card's "JSON based
 * tool calling" section shows them (`{"name": "get_current_conditions", "parameters": {…}}`),
 * plus the variants Llama 3.x models emit (`<|python_tag|>` first, `"arguments"`, an extra
 * `"type": "function"`), each fed split at every position.
 */
import { describe, expect, it } from 'vitest';
import type { ConversationItem, ParserOptions, ToolSpec } from './chat-format';
import { createLlama3Format, createLlama3Parser, llama3Format } from './llama3-format';
import { parseEveryChunking, textEvent as text, toolCallEvent as call } from '../../test/support/stream-parser-harness';

const CONDITIONS = { toolNames: new Set(['get_current_conditions']) } satisfies ParserOptions;
const WEATHER = { toolNames: new Set(['get_weather', 'get_time']) } satisfies ParserOptions;

const parse = (input: string, options: ParserOptions = WEATHER) => parseEveryChunking(() => createLlama3Parser(options), input);

describe('Llama 3 parser', () => {
  it('reads the JSON call of the Llama 3.1 model card', () => {
    const input = '{"name": "get_current_conditions", "parameters": {"location": "Menlo Park, CA", "unit": "Fahrenheit"}}';
    const result = parse(input, CONDITIONS);
    expect(result.events).toEqual([call('get_current_conditions', { location: 'Menlo Park, CA', unit: 'Fahrenheit' })]);
    expect(result.toolCallSpans).toEqual([[0, input.length]]);
  });

  it('reads a call after <|python_tag|>, the tag belonging to the call', () => {
    const input = '<|python_tag|>{"name": "get_weather", "parameters": {"location": "Paris"}}';
    const result = parse(input);
    expect(result.events).toEqual([call('get_weather', { location: 'Paris' })]);
    expect(result.toolCallSpans).toEqual([[0, input.length]]);
  });

  it('keeps whitespace around a call as text', () => {
    const input = '\n <|python_tag|>\n{"name": "get_weather", "parameters": {"location": "Paris"}}\n';
    const result = parse(input);
    expect(result.events).toEqual([text('\n '), call('get_weather', { location: 'Paris' }), text('\n')]);
    expect(result.toolCallSpans).toEqual([[2, input.length - 1]]);
  });

  it.each([
    ['"arguments" for "parameters"', '{"name": "get_weather", "arguments": {"location": "Paris"}}'],
    ['"type": "function" copied from the tool list', '{"type": "function", "name": "get_weather", "parameters": {"location": "Paris"}}'],
    ['parameters as a JSON string', '{"name": "get_weather", "parameters": "{\\"location\\": \\"Paris\\"}"}'],
    ['compact JSON', '{"name":"get_weather","parameters":{"location":"Paris"}}'],
  ])('accepts %s', (_, input) => {
    expect(parse(input).events).toEqual([call('get_weather', { location: 'Paris' })]);
  });

  it('reads several calls separated by ";" or newlines', () => {
    const input =
      '{"name": "get_weather", "parameters": {"location": "Paris"}}; ' +
      '{"name": "get_weather", "parameters": {"location": "Tokyo"}}\n' +
      '<|python_tag|>{"name": "get_time", "parameters": {}}';
    const result = parse(input);
    expect(result.events).toEqual([
      call('get_weather', { location: 'Paris' }),
      text(' '),
      call('get_weather', { location: 'Tokyo' }),
      text('\n'),
      call('get_time', {}),
    ]);
    const second = input.indexOf('{"name": "get_weather", "parameters": {"location": "Tokyo"}}');
    expect(result.toolCallSpans).toEqual([
      [0, second - 1],
      [second, input.indexOf('\n<|python_tag|>')],
      [input.indexOf('<|python_tag|>'), input.length],
    ]);
  });

  it.each([
    ['one of them calls a tool that is not enabled', '{"name": "get_weather", "parameters": {}};\n{"name": "rm_rf", "parameters": {}}'],
    ['no separator', '{"name": "get_weather", "parameters": {}}{"name": "get_time", "parameters": {}}'],
    ['only a space between', '{"name": "get_weather", "parameters": {}} {"name": "get_time", "parameters": {}}'],
    ['two semicolons', '{"name": "get_weather", "parameters": {}};;{"name": "get_time", "parameters": {}}'],
    ['text after the call', '{"name": "get_weather", "parameters": {"location": "Paris"}} is what I would call.'],
    ['a trailing tag', '{"name": "get_time", "parameters": {}}\n<|python_tag|>'],
  ])('keeps all calls as text when %s', (_, input) => {
    expect(parse(input).events).toEqual([text(input)]);
  });

  it.each([
    ['a JSON answer', '{"a": 1}'],
    ['a tool that is not enabled', '{"name": "unknown_tool", "parameters": {"x": 1}}'],
    ['a call with extra keys', '{"name": "get_weather", "parameters": {}, "reason": "asked"}'],
    ['a call without parameters', '{"name": "get_weather"}'],
    ['both parameters and arguments', '{"name": "get_weather", "parameters": {}, "arguments": {}}'],
    ['parameters that are not an object', '{"name": "get_weather", "parameters": ["Paris"]}'],
    ['another type', '{"type": "tool", "name": "get_weather", "parameters": {}}'],
    ['invalid JSON', '{"name": "get_weather", "parameters": {"location": Paris}}'],
    ['a JSON array of calls', '[{"name": "get_weather", "parameters": {}}]'],
    ['an unfinished call', '{"name": "get_weather", "parameters": {"location": "Par'],
    ['a lone python tag', '<|python_tag|>'],
    ['a python tag before code', '<|python_tag|>print(1)'],
    ['a look-alike tag', '<|python_tags|>{"name": "get_weather", "parameters": {}}'],
    ['text before the call', 'Sure! {"name": "get_weather", "parameters": {"location": "Paris"}}'],
    ['only whitespace', ' \n '],
  ])('keeps %s as text', (_, input) => {
    expect(parse(input).events).toEqual(input ? [text(input)] : []);
  });

  it('reads braces and escaped quotes inside strings', () => {
    const input = '{"name": "get_weather", "parameters": {"location": "}{\\"}; {\\n"}}';
    expect(parse(input).events).toEqual([call('get_weather', { location: '}{"}; {\n' })]);
  });

  it('keeps multi-byte characters intact', () => {
    const input = '{"name": "get_weather", "parameters": {"location": "東京 🗼"}}';
    expect(parse(input).events).toEqual([call('get_weather', { location: '東京 🗼' })]);
    const answer = '🌤️ Sunny in 東京 🗼';
    expect(parse(answer).events).toEqual([text(answer)]);
  });

  it('streams an answer at once and holds back only what may still be a call', () => {
    const parser = createLlama3Parser(WEATHER);
    expect(parser.push('  ')).toEqual([]);
    expect(parser.push('The')).toEqual([text('  The')]);
    expect(parser.push(' weather {"name"')).toEqual([text(' weather {"name"')]);
    expect(parser.end()).toEqual([]);

    const held = createLlama3Parser(WEATHER);
    expect(held.push('<|pyth')).toEqual([]);
    expect(held.push('on_tag|>{"name": "get_weather", ')).toEqual([]);
    expect(held.push('"parameters": {"location": "Paris"}}')).toEqual([]);
    expect(held.end()).toEqual([call('get_weather', { location: 'Paris' })]);
  });

  it('releases held output as soon as it cannot be calls', () => {
    const parser = createLlama3Parser(WEATHER);
    expect(parser.push('{"answer": 4')).toEqual([]);
    expect(parser.push('2} and')).toEqual([text('{"answer": 42} and')]);
    expect(parser.push(' more')).toEqual([text(' more')]);
    expect(parser.end()).toEqual([]);

    const tag = createLlama3Parser(WEATHER);
    expect(tag.push('<|pytho')).toEqual([]);
    expect(tag.push('n>x')).toEqual([text('<|python>x')]);
  });

  it('holds nothing when no tool is enabled', () => {
    const parser = createLlama3Parser({ toolNames: new Set() });
    expect(parser.push('{"name": "get_weather", ')).toEqual([text('{"name": "get_weather", ')]);
    expect(parser.push('"parameters": {}}')).toEqual([text('"parameters": {}}')]);
    expect(parser.end()).toEqual([]);
    expect(parser.toolCallSpans()).toEqual([]);
  });

  it('has no reasoning, even when asked to start in it', () => {
    const input = '<think>hm</think>{"name": "get_time", "parameters": {}}';
    const result = parseEveryChunking(() => createLlama3Parser({ ...WEATHER, startInReasoning: true }), input);
    expect(result.events).toEqual([text(input)]);
    expect(result.reasoningSpans).toEqual([]);
  });

  it('refuses input after end()', () => {
    const parser = createLlama3Parser(WEATHER);
    parser.end();
    expect(() => parser.push('late')).toThrow(/after end/);
    expect(parser.end()).toEqual([]);
  });
});

const getWeather: ToolSpec = {
  name: 'get_weather',
  description: 'Get the current weather in a location.',
  parameters: {
    type: 'object',
    properties: { location: { type: 'string', description: 'City name' } },
    required: ['location'],
  },
};

/** `tojson(indent=4)` of `{"type": "function", "function": getWeather}`, written out by hand. */
const GET_WEATHER_JSON = [
  '{',
  '    "type": "function",',
  '    "function": {',
  '        "name": "get_weather",',
  '        "description": "Get the current weather in a location.",',
  '        "parameters": {',
  '            "type": "object",',
  '            "properties": {',
  '                "location": {',
  '                    "type": "string",',
  '                    "description": "City name"',
  '                }',
  '            },',
  '            "required": [',
  '                "location"',
  '            ]',
  '        }',
  '    }',
  '}',
].join('\n');

const TOOLS_INTRO =
  'Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.\n\n' +
  'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.Do not use variables.\n\n';

const user = (text: string): ConversationItem => ({ type: 'message', role: 'user', text });
const assistant = (text: string): ConversationItem => ({ type: 'message', role: 'assistant', text });
const weatherCall = (callId: string, location: string): ConversationItem => ({
  type: 'function_call',
  call_id: callId,
  name: 'get_weather',
  arguments: JSON.stringify({ location }),
});
const output = (callId: string, text: string): ConversationItem => ({ type: 'function_call_output', call_id: callId, output: text });

describe('llama3Format.render', () => {
  it('renders instructions, tools, a function-call round trip and a new question', () => {
    const { prompt, messages } = llama3Format.render({
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
      '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n' +
        'Environment: ipython\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n' +
        'You are a weather bot.<|eot_id|>' +
        '<|start_header_id|>user<|end_header_id|>\n\n' +
        TOOLS_INTRO +
        GET_WEATHER_JSON +
        '\n\nWhat is the weather in Paris?<|eot_id|>' +
        '<|start_header_id|>assistant<|end_header_id|>\n\n' +
        '{"name": "get_weather", "parameters": {"location": "Paris"}}<|eot_id|>' +
        '<|start_header_id|>ipython<|end_header_id|>\n\n' +
        '"{\\"temperature\\": 18, \\"unit\\": \\"celsius\\"}"<|eot_id|>' +
        '<|start_header_id|>user<|end_header_id|>\n\n' +
        'And in Tokyo?<|eot_id|>' +
        '<|start_header_id|>assistant<|end_header_id|>\n\n',
    );
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(messages[3]?.content).toBe('"{\\"temperature\\": 18, \\"unit\\": \\"celsius\\"}"');
  });

  it('always writes the date preamble, and nothing about tools without tools', () => {
    const { prompt } = llama3Format.render({ tools: [], items: [user('Hi')] });
    expect(prompt).toBe(
      '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n' +
        'Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|>' +
        '<|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>' +
        '<|start_header_id|>assistant<|end_header_id|>\n\n',
    );
  });

  it('takes the date string as an option', () => {
    const { messages } = createLlama3Format({ dateString: '05 Mar 2025' }).render({ tools: [], items: [user('Hi')] });
    expect(messages[0]?.content).toBe('Cutting Knowledge Date: December 2023\nToday Date: 05 Mar 2025\n\n');
  });

  it('joins leading system and developer messages into the system turn and trims text', () => {
    const { messages } = llama3Format.render({
      instructions: '  Be brief.  ',
      tools: [],
      items: [
        { type: 'message', role: 'developer', text: 'Answer in French.\n' },
        user('  Hi  '),
        { type: 'message', role: 'system', text: 'Later rule.' },
        assistant(' Salut ! '),
      ],
    });
    expect(messages).toEqual([
      { role: 'system', content: 'Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\nBe brief.  \n\nAnswer in French.' },
      { role: 'user', content: 'Hi' },
      { role: 'system', content: 'Later rule.' },
      { role: 'assistant', content: 'Salut !' },
    ]);
  });

  it('gives parallel calls and preceding text one turn each, and drops reasoning', () => {
    const { messages } = llama3Format.render({
      tools: [getWeather],
      items: [
        user('Paris and Tokyo?'),
        { type: 'reasoning', text: 'Two cities.' },
        assistant('Let me check.'),
        weatherCall('call_1', 'Paris'),
        weatherCall('call_2', 'Tokyo'),
        output('call_1', '18 °C'),
        output('call_2', '24 °C'),
        assistant('Paris: 18 °C, Tokyo: 24 °C.'),
      ],
    });
    expect(messages.slice(2)).toEqual([
      { role: 'assistant', content: 'Let me check.' },
      { role: 'assistant', content: '{"name": "get_weather", "parameters": {"location": "Paris"}}' },
      { role: 'assistant', content: '{"name": "get_weather", "parameters": {"location": "Tokyo"}}' },
      { role: 'tool', content: '"18 °C"' },
      { role: 'tool', content: '"24 °C"' },
      { role: 'assistant', content: 'Paris: 18 °C, Tokyo: 24 °C.' },
    ]);
  });

  it('gives the tool block a user turn of its own when no user message comes first', () => {
    const { messages } = llama3Format.render({
      tools: [{ name: 'now', description: null }],
      items: [assistant('Hello!'), { type: 'function_call', call_id: 'c', name: 'now', arguments: '{oops' }],
    });
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: `${TOOLS_INTRO}{\n    "type": "function",\n    "function": {\n        "name": "now"\n    }\n}\n\n` },
      { role: 'assistant', content: 'Hello!' },
      { role: 'assistant', content: '{"name": "now", "parameters": {oops}' },
    ]);
  });

  it('renders a call the way the model writes it, so a continuation can reuse the cache', () => {
    const modelOutput = '{"name": "get_weather", "parameters": {"location": "Paris"}}';
    const parser = llama3Format.createParser({ toolNames: new Set(['get_weather']) });
    const [event] = [...parser.push(modelOutput), ...parser.end()];
    if (event?.type !== 'tool_call') throw new Error('expected a call');
    const turn1 = llama3Format.render({ tools: [getWeather], items: [user('Paris?')] });
    const turn2 = llama3Format.render({
      tools: [getWeather],
      items: [user('Paris?'), { type: 'function_call', call_id: 'c', name: event.name, arguments: event.arguments }, output('c', '18')],
    });
    expect(turn2.prompt.startsWith(`${turn1.prompt}${modelOutput}<|eot_id|>`)).toBe(true);
  });
});
