import { expect, test } from 'vitest';
import { chatMessages, chatProfile, chatRequest } from './chat-request';

test('instructions and system/developer notes as system; calls join the assistant text they follow; reasoning is not sent back', () => {
  expect(
    chatMessages({
      instructions: 'Be brief.',
      tools: [],
      items: [
        { type: 'message', role: 'developer', text: 'Summary of the earlier conversation: …' },
        { type: 'message', role: 'user', text: 'Go' },
        { type: 'reasoning', text: 'thinking' },
        { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
        { type: 'function_call', call_id: 'b', name: 'g', arguments: '{"x":1}' },
        { type: 'function_call_output', call_id: 'a', output: '1' },
        { type: 'function_call_output', call_id: 'b', output: '2' },
        { type: 'message', role: 'assistant', text: 'Done' },
      ],
    }),
  ).toEqual([
    { role: 'system', content: 'Be brief.' },
    { role: 'system', content: 'Summary of the earlier conversation: …' },
    { role: 'user', content: 'Go' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } },
        { id: 'b', type: 'function', function: { name: 'g', arguments: '{"x":1}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'a', content: '1' },
    { role: 'tool', tool_call_id: 'b', content: '2' },
    { role: 'assistant', content: 'Done' },
  ]);
});

test('a tool output’s images follow the run of tool messages as one user message (a tool message holds text only)', () => {
  const png = 'data:image/png;base64,AAAA';
  expect(
    chatMessages({
      tools: [],
      items: [
        { type: 'function_call', call_id: 'a', name: 'shot', arguments: '{}' },
        { type: 'function_call', call_id: 'b', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'a', output: 'a screenshot', images: [png] },
        { type: 'function_call_output', call_id: 'b', output: '2' },
      ],
    }).slice(1),
  ).toEqual([
    { role: 'tool', tool_call_id: 'a', content: 'a screenshot' },
    { role: 'tool', tool_call_id: 'b', content: '2' },
    { role: 'user', content: [{ type: 'text', text: 'The images the tool returned (call a):' }, { type: 'image_url', image_url: { url: png } }] },
  ]);
});

test('OpenAI gets max_completion_tokens, servers max_tokens; json_object; top_logprobs 0 asks for 1', () => {
  expect(chatProfile('https://api.openai.com/v1').maxTokensField).toBe('max_completion_tokens');
  expect(chatProfile('http://127.0.0.1:8080/v1').maxTokensField).toBe('max_tokens');
  const body = chatRequest(
    { model: 'lab/m', input: { messages: [], prompt: '' }, conversation: { items: [], tools: [] }, maxOutputTokens: 9, jsonSchema: {}, topLogprobs: 0, signal: new AbortController().signal },
    'm',
    chatProfile('https://api.openai.com/v1'),
  );
  expect(body).toMatchObject({ model: 'm', max_completion_tokens: 9, response_format: { type: 'json_object' }, logprobs: true, top_logprobs: 1 });
  expect(body).not.toHaveProperty('tools');
});
