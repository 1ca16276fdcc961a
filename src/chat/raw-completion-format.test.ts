import { describe, expect, it } from 'vitest';
import { rawCompletionFormat } from './raw-completion-format';

describe('raw-completion format', () => {
  it('renders only the text of the last user message', () => {
    const rendered = rawCompletionFormat.render({
      instructions: 'Be brief.',
      tools: [{ name: 'f' }],
      items: [
        { type: 'message', role: 'user', text: 'first' },
        { type: 'message', role: 'assistant', text: 'reply' },
        { type: 'message', role: 'user', text: 'Once upon a time' },
        { type: 'function_call_output', call_id: 'c', output: 'x' },
      ],
    });
    expect(rendered).toEqual({ prompt: 'Once upon a time', messages: [{ role: 'user', content: 'Once upon a time' }] });
  });

  it('reads all output as text', () => {
    const parser = rawCompletionFormat.createParser({ toolNames: new Set(['f']) });
    const events = [...parser.push('<think>a</think><tool_call>{"name":"f","arguments":{}}</tool_call>'), ...parser.end()];
    expect(events.every((e) => e.type === 'text')).toBe(true);
    expect(events.map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe('<think>a</think><tool_call>{"name":"f","arguments":{}}</tool_call>');
  });
});
