import { describe, expect, it } from 'vitest';
import { qwenFormat } from '../chat/qwen-format';
import type { ConversationItem } from '../chat/chat-format';
import { readScript } from './scripted-engine';

const script = JSON.stringify({ script: ['first', 'second', 'third'], delay_ms: 3, chunk: 2 });
const render = (items: ConversationItem[]) => qwenFormat.render({ items, tools: [], instructions: 'Be brief.' }).messages;
const call = (id: string): ConversationItem[] => [
  { type: 'function_call', call_id: id, name: 'f', arguments: '{}' },
  { type: 'function_call_output', call_id: id, output: `result ${id}` },
];

describe('readScript: the script from the messages the scripted model is given', () => {
  it('plays entry i after i tool results, counting results Qwen merges into one turn', () => {
    expect(readScript(render([{ type: 'message', role: 'user', text: script }]))).toEqual({ output: 'first', delayMs: 3, failAfter: null, chunk: 2 });
    expect(readScript(render([{ type: 'message', role: 'user', text: script }, ...call('a')])).output).toBe('second');
    // Two calls in one assistant turn: their outputs share one user turn of <tool_response>s.
    const parallel: ConversationItem[] = [
      { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
      { type: 'function_call', call_id: 'b', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'a', output: 'A' },
      { type: 'function_call_output', call_id: 'b', output: 'B' },
    ];
    expect(readScript(render([{ type: 'message', role: 'user', text: script }, ...parallel])).output).toBe('third');
    expect(readScript(render([{ type: 'message', role: 'user', text: script }, ...call('a'), ...call('b'), ...call('c')])).output).toBe('third');
  });

  it('reads the last user turn the user wrote; tool results before it do not count', () => {
    const items: ConversationItem[] = [{ type: 'message', role: 'user', text: 'old' }, ...call('a'), { type: 'message', role: 'user', text: 'new' }];
    expect(readScript(render(items)).output).toBe('You said: new');
    expect(readScript(render([...items.slice(0, 3), { type: 'message', role: 'user', text: script }])).output).toBe('first');
  });
});
