/**
 * DeepSeek-R1-Distill. Prompts are written out by hand from the `chat_template` of
 * deepseek-ai/DeepSeek-R1-Distill-Qwen-32B's tokenizer_config.json (llama.cpp's copy in
 * `models/templates/`), whose generation prompt ends with `<｜Assistant｜><think>\n`. Outputs are
 * written as the R1 model card describes them: the reasoning (the `<think>\n` already in the
 * prompt), `</think>`, then the answer.
 */
import { describe, expect, it } from 'vitest';
import type { ConversationItem, ParserOptions, ToolSpec } from './chat-format';
import { createR1DistillParser, r1DistillFormat } from './r1-distill-format';
import { parseEveryChunking, reasoningDone as done, reasoningEvent as reasoning, textEvent as text } from '../../test/support/stream-parser-harness';

const parse = (input: string, options: ParserOptions = { toolNames: new Set(['get_weather']) }) =>
  parseEveryChunking(() => createR1DistillParser(options), input);

describe('R1 distill parser', () => {
  it('starts inside the think block the prompt opened', () => {
    const input = 'Okay, so the user asks for 2 + 2. That is 4.\n</think>\n\n2 + 2 = **4**.';
    const result = parse(input);
    expect(result.events).toEqual([reasoning('Okay, so the user asks for 2 + 2. That is 4.\n'), done, text('\n\n2 + 2 = **4**.')]);
    expect(result.reasoningSpans).toEqual([[0, input.indexOf('\n\n2 + 2')]]);
  });

  it('ends unfinished reasoning as reasoning', () => {
    const input = 'Hmm, let me think about </thi';
    expect(parse(input).events).toEqual([reasoning(input), done]);
  });

  it('turns no output into a call, even of an enabled tool', () => {
    const input = 'Need weather.</think><tool_call>{"name": "get_weather", "arguments": {"location": "Paris"}}</tool_call>';
    expect(parse(input).events).toEqual([
      reasoning('Need weather.'),
      done,
      text('<tool_call>{"name": "get_weather", "arguments": {"location": "Paris"}}</tool_call>'),
    ]);
  });

  it('starts in text when told the prompt opened no think block', () => {
    const input = '<think>\nShort.\n</think>\n\nHi!';
    expect(parse(input, { toolNames: new Set(), startInReasoning: false }).events).toEqual([
      reasoning('\nShort.\n'),
      done,
      text('\n\nHi!'),
    ]);
  });

  it('is what r1DistillFormat.createParser returns', () => {
    const parser = r1DistillFormat.createParser({ toolNames: new Set() });
    expect([...parser.push('a</think>b'), ...parser.end()]).toEqual([reasoning('a'), done, text('b')]);
  });
});

const getWeather: ToolSpec = { name: 'get_weather', description: 'Get the weather.', parameters: { type: 'object' } };
const user = (text: string): ConversationItem => ({ type: 'message', role: 'user', text });
const assistant = (text: string): ConversationItem => ({ type: 'message', role: 'assistant', text });

describe('r1DistillFormat.render', () => {
  it('renders instructions, a function-call round trip and a new question, ignoring tools', () => {
    const { prompt, messages } = r1DistillFormat.render({
      instructions: 'You are a weather bot.',
      tools: [getWeather],
      enableThinking: false,
      items: [
        user('What is the weather in Paris?'),
        { type: 'reasoning', text: 'Call the tool.' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"location":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"temperature": 18}' },
        assistant('It is 18 °C.'),
        user('And in Tokyo?'),
      ],
    });
    expect(prompt).toBe(
      '<｜begin▁of▁sentence｜>You are a weather bot.' +
        '<｜User｜>What is the weather in Paris?' +
        '<｜Assistant｜><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n' +
        '```json\n{"location":"Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>' +
        '<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>{"temperature": 18}<｜tool▁output▁end｜><｜tool▁outputs▁end｜>' +
        '<｜Assistant｜>It is 18 °C.<｜end▁of▁sentence｜>' +
        '<｜User｜>And in Tokyo?' +
        '<｜Assistant｜><think>\n',
    );
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(prompt).not.toContain('Get the weather.');
  });

  it('shows only the answer of past turns and joins system messages', () => {
    const { prompt } = r1DistillFormat.render({
      instructions: 'Be brief.',
      tools: [],
      items: [
        { type: 'message', role: 'developer', text: 'Answer in French.' },
        user('2+2?'),
        assistant('<think>\nEasy.\n</think>\n\n4.'),
        user('3+3?'),
      ],
    });
    expect(prompt).toBe(
      '<｜begin▁of▁sentence｜>Be brief.\n\nAnswer in French.<｜User｜>2+2?<｜Assistant｜>\n\n4.<｜end▁of▁sentence｜><｜User｜>3+3?<｜Assistant｜><think>\n',
    );
  });

  it('groups parallel calls and their outputs into one block each, every round afresh', () => {
    const call = (id: string, city: string): ConversationItem => ({
      type: 'function_call',
      call_id: id,
      name: 'get_weather',
      arguments: `{"location":"${city}"}`,
    });
    const out = (id: string, value: string): ConversationItem => ({ type: 'function_call_output', call_id: id, output: value });
    const { prompt } = r1DistillFormat.render({
      tools: [],
      items: [user('Paris and Tokyo?'), call('a', 'Paris'), call('b', 'Tokyo'), out('a', '18'), out('b', '24'), call('c', 'Oslo'), out('c', '5')],
    });
    const round = (cities: string[]) =>
      '<｜Assistant｜><｜tool▁calls▁begin｜>' +
      cities.map((city) => `<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n\`\`\`json\n{"location":"${city}"}\n\`\`\`<｜tool▁call▁end｜>`).join('\n') +
      '<｜tool▁calls▁end｜><｜end▁of▁sentence｜>';
    const outputs = (values: string[]) =>
      '<｜tool▁outputs▁begin｜>' + values.map((value) => `<｜tool▁output▁begin｜>${value}<｜tool▁output▁end｜>`).join('\n') + '<｜tool▁outputs▁end｜>';
    expect(prompt).toBe(
      '<｜begin▁of▁sentence｜><｜User｜>Paris and Tokyo?' +
        round(['Paris', 'Tokyo']) +
        outputs(['18', '24']) +
        round(['Oslo']) +
        outputs(['5']) +
        '<｜Assistant｜><think>\n',
    );
  });
});
