import { expect, test } from 'vitest';
import { ChatStreamReader, callEvent } from './chat-stream';

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ choices: [{ index: 0, delta, finish_reason: null, ...extra }] });

test('reasoning closes before the text that follows it; text and reasoning are one token a chunk', () => {
  const reader = new ChatStreamReader(new Set(), undefined);
  const out = [chunk({ role: 'assistant', content: null }), chunk({ reasoning_content: 'a' }), chunk({ reasoning: 'b' }), chunk({ content: 'c' })].map((c) => reader.push(c));
  expect(out).toEqual([
    null,
    { text: '', tokens: 1, events: [{ type: 'reasoning', text: 'a' }] },
    { text: '', tokens: 1, events: [{ type: 'reasoning', text: 'b' }] },
    { text: '', tokens: 1, events: [{ type: 'reasoning_done' }, { type: 'text', text: 'c' }] },
  ]);
});

test('a whole call in one chunk (Ollama) completes at the finish; usage with SGLang’s top-level reasoning_tokens', () => {
  const reader = new ChatStreamReader(new Set(['f']), undefined);
  expect(reader.push(chunk({ tool_calls: [{ index: 0, id: 'x', type: 'function', function: { name: 'f', arguments: '{"a": 1}' } }] }))?.events).toEqual([]);
  expect(reader.push(chunk({}, { finish_reason: 'tool_calls' }))?.events).toEqual([{ type: 'tool_call', name: 'f', arguments: '{"a":1}' }]);
  reader.push({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8, reasoning_tokens: 2 } });
  expect(reader.end).toEqual({ finish: 'stop', usage: { inputTokens: 5, cachedTokens: 0, outputTokens: 3, reasoningTokens: 2 } });
});

test('a finish reason it does not know is kept as such (the round then fails)', () => {
  const reader = new ChatStreamReader(new Set(), undefined);
  reader.push(chunk({}, { finish_reason: 'abort' }));
  expect(reader.finished).toBe(true);
  expect(reader.end).toMatchObject({ finish: null, unknownFinish: 'abort' });
});

test('logprobs: one entry per token, alternatives cut to what was asked, bytes from the token when absent', () => {
  const reader = new ChatStreamReader(new Set(), 1);
  const delta = reader.push(chunk({ content: 'hé' }, { logprobs: { content: [{ id: 3, token: 'hé', logprob: -0.1, top_logprobs: [{ token: 'hé', logprob: -0.1 }, { token: 'x', logprob: -3 }] }] } }));
  expect(delta).toEqual({
    text: '',
    tokens: 1,
    events: [{ type: 'text', text: 'hé' }],
    logprobs: [{ token: 'hé', logprob: -0.1, bytes: [104, 195, 169], top_logprobs: [{ token: 'hé', logprob: -0.1, bytes: [104, 195, 169] }] }],
  });
});

test('a call becomes a tool_call only for an enabled tool with object arguments; empty arguments are {}', () => {
  const tools = new Set(['f']);
  expect(callEvent('f', '', tools)).toEqual({ type: 'tool_call', name: 'f', arguments: '{}' });
  expect(callEvent('f', '[1]', tools)).toEqual({ type: 'text', text: '{"name":"f","arguments":[1]}' });
  expect(callEvent('g', '{}', tools)).toEqual({ type: 'text', text: '{"name":"g","arguments":{}}' });
});
