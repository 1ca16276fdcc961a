/**
 * The tag parser, driven through the Qwen grammar with outputs written exactly as Qwen's docs
 * show them (Qwen2.5 function-calling guide, Qwen3 model card). Every input is also fed split
 * at every position and one UTF-16 unit at a time: the merged events must not change.
 */
import { describe, expect, it } from 'vitest';
import type { ParserOptions } from './chat-format';
import { createQwenParser } from './qwen-format';
import { createTagStreamParser } from './stream-parser';
import { mergeEvents, parseEveryChunking, reasoningDone, reasoningEvent, textEvent, toolCallEvent, type Run } from '../../test/support/stream-parser-harness';

const WEATHER = { toolNames: new Set(['get_weather']) } satisfies ParserOptions;
const NO_TOOLS = { toolNames: new Set<string>() } satisfies ParserOptions;

/** Parses `input` whole and under every chunking (see the harness for what must hold). */
function parse(input: string, options: ParserOptions = WEATHER): Run {
  return parseEveryChunking(() => createQwenParser(options), input);
}

const merge = mergeEvents;
const text = textEvent;
const reasoning = reasoningEvent;
const done = reasoningDone;
const call = toolCallEvent;

describe('Qwen stream parser', () => {
  it('passes plain text through unchanged', () => {
    const input = 'Paris is the capital of France.\n\nIt has about 2.1 million inhabitants.';
    expect(parse(input).events).toEqual([text(input)]);
  });

  it('reads a Qwen3 thinking block, keeping whitespace as written', () => {
    const input = '<think>\nThe user asks for a greeting. Keep it short.\n</think>\n\nHello! How can I help you today?';
    const result = parse(input);
    expect(result.events).toEqual([
      reasoning('\nThe user asks for a greeting. Keep it short.\n'),
      done,
      text('\n\nHello! How can I help you today?'),
    ]);
    expect(result.reasoningSpans).toEqual([[0, input.indexOf('</think>') + '</think>'.length]]);
  });

  it('reads reasoning followed by a tool call', () => {
    const input =
      '<think>\nI need the current weather in Paris.\n</think>\n\n' +
      '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Paris"}}\n</tool_call>';
    const result = parse(input);
    expect(result.events).toEqual([
      reasoning('\nI need the current weather in Paris.\n'),
      done,
      text('\n\n'),
      call('get_weather', { location: 'Paris' }),
    ]);
    expect(result.toolCallSpans).toEqual([[input.indexOf('<tool_call>'), input.length]]);
  });

  it('reads parallel tool calls (Qwen2.5 function-calling guide)', () => {
    const input =
      '<tool_call>\n{"name": "get_current_temperature", "arguments": {"location": "San Francisco, CA, USA"}}\n</tool_call>\n' +
      '<tool_call>\n{"name": "get_temperature_date", "arguments": {"location": "San Francisco, CA, USA", "date": "2024-10-01"}}\n</tool_call>';
    const options = { toolNames: new Set(['get_current_temperature', 'get_temperature_date']) };
    expect(parse(input, options).events).toEqual([
      call('get_current_temperature', { location: 'San Francisco, CA, USA' }),
      text('\n'),
      call('get_temperature_date', { location: 'San Francisco, CA, USA', date: '2024-10-01' }),
    ]);
  });

  it('reads the compact form of the scripted test model', () => {
    const input = '<think>add</think><tool_call>{"name":"python","arguments":{"code":"print(2+2)"}}</tool_call>';
    expect(parse(input, { toolNames: new Set(['python']) }).events).toEqual([
      reasoning('add'),
      done,
      call('python', { code: 'print(2+2)' }),
    ]);
  });

  it('accepts arguments given as a JSON string holding an object', () => {
    const input = '<tool_call>\n{"name": "get_weather", "arguments": "{\\"location\\": \\"Paris\\"}"}\n</tool_call>';
    expect(parse(input).events).toEqual([call('get_weather', { location: 'Paris' })]);
  });

  it('keeps a call of a tool the request does not enable as text, byte for byte', () => {
    const input = 'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"location": "Paris"}}\n</tool_call>\n';
    expect(parse(input, NO_TOOLS).events).toEqual([text(input)]);
    expect(parse(input, { toolNames: new Set(['get_time']) }).events).toEqual([text(input)]);
  });

  it.each([
    ['invalid JSON', '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Paris"}\n</tool_call>'],
    ['arguments not an object', '<tool_call>\n{"name": "get_weather", "arguments": ["Paris"]}\n</tool_call>'],
    ['arguments missing', '<tool_call>\n{"name": "get_weather"}\n</tool_call>'],
    ['string arguments that are not an object', '<tool_call>{"name": "get_weather", "arguments": "Paris"}</tool_call>'],
    ['name not a string', '<tool_call>{"name": 1, "arguments": {}}</tool_call>'],
    ['empty block', '<tool_call></tool_call>'],
  ])('keeps a malformed call as text (%s)', (_, block) => {
    const input = `Before ${block} after`;
    expect(parse(input).events).toEqual([text(input)]);
  });

  it('leaves look-alike tags as text', () => {
    const input =
      'if a < b and b <= c: <thinking>no</thinking> <tool <tool_calls> <Think> </think> </tool_call> <think';
    expect(parse(input).events).toEqual([text(input)]);
  });

  it('does not read tags inside a tool call or reasoning inside reasoning', () => {
    const input =
      '<think>Maybe <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>? <think></think>' +
      '<tool_call>{"name": "get_weather", "arguments": {"location": "<think>"}}</tool_call>';
    const result = parse(input);
    expect(result.events).toEqual([
      reasoning('Maybe <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>? <think>'),
      done,
      call('get_weather', { location: '<think>' }),
    ]);
  });

  it('recognizes <think> anywhere in text, and more than once', () => {
    const input = 'Sure.\n<think>first</think> middle <think>second</think>end';
    const result = parse(input);
    expect(result.events).toEqual([
      text('Sure.\n'),
      reasoning('first'),
      done,
      text(' middle '),
      reasoning('second'),
      done,
      text('end'),
    ]);
    const second = input.indexOf('<think>second');
    expect(result.reasoningSpans).toEqual([
      [6, 6 + '<think>first</think>'.length],
      [second, second + '<think>second</think>'.length],
    ]);
  });

  it('flushes an unclosed tool call as text at the end', () => {
    const input = 'One moment.\n<tool_call>\n{"name": "get_weather", "arguments": {"location": "Par';
    expect(parse(input).events).toEqual([text(input)]);
  });

  it('ends an unclosed think block as reasoning', () => {
    const input = 'Hi <think>\nStill thinking about </thi';
    const result = parse(input);
    expect(result.events).toEqual([text('Hi '), reasoning('\nStill thinking about </thi'), done]);
    expect(result.reasoningSpans).toEqual([[3, input.length]]);
  });

  it('keeps multi-byte characters next to tags intact', () => {
    const input =
      '<think>🤔天气？</think>👍答案：<tool_call>{"name":"get_weather","arguments":{"location":"東京 🗼"}}</tool_call>🎉';
    expect(parse(input).events).toEqual([
      reasoning('🤔天气？'),
      done,
      text('👍答案：'),
      call('get_weather', { location: '東京 🗼' }),
      text('🎉'),
    ]);
  });

  it('starts inside a think block when the prompt opened one', () => {
    const input = 'Okay, the user wants 2+2.\n</think>\n\n2 + 2 = 4.';
    const result = parse(input, { ...NO_TOOLS, startInReasoning: true });
    expect(result.events).toEqual([reasoning('Okay, the user wants 2+2.\n'), done, text('\n\n2 + 2 = 4.')]);
    expect(result.reasoningSpans).toEqual([[0, input.indexOf('\n\n2')]]);
  });

  it('reports an open think block in reasoningSpans before end()', () => {
    const parser = createQwenParser({ ...NO_TOOLS, startInReasoning: true });
    parser.push('still going');
    expect(parser.reasoningSpans()).toEqual([[0, 11]]);
  });

  it('releases text as soon as it is certain, holding back only a possible tag', () => {
    const parser = createQwenParser(WEATHER);
    expect(parser.push('Hello <th')).toEqual([text('Hello ')]);
    expect(parser.push('ink>Hm')).toEqual([reasoning('Hm')]);
    expect(parser.push('m</')).toEqual([reasoning('m')]);
    expect(parser.push('think> a < b <tool_c')).toEqual([done, text(' a < b ')]);
    expect(parser.push('all>{"name": "get_weather",')).toEqual([]);
    expect(parser.push(' "arguments": {}}</tool_call>!')).toEqual([call('get_weather', {}), text('!')]);
    expect(parser.end()).toEqual([]);
  });

  it('refuses input after end()', () => {
    const parser = createQwenParser(WEATHER);
    parser.end();
    expect(() => parser.push('late')).toThrow(/after end/);
  });
});

describe('createTagStreamParser', () => {
  it('works with a grammar that has only reasoning tags', () => {
    const parser = createTagStreamParser({ reasoning: { open: '[R]', close: '[/R]' } }, NO_TOOLS);
    const events = [...parser.push('a[R]b[/'), ...parser.push('R]<tool_call>{}</tool_call>'), ...parser.end()];
    expect(merge(events)).toEqual([text('a'), reasoning('b'), done, text('<tool_call>{}</tool_call>')]);
    expect(parser.reasoningSpans()).toEqual([[1, 9]]);
  });
});
