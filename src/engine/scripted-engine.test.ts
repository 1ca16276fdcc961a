import { describe, expect, it } from 'vitest';
import { qwenFormat } from '../chat/qwen-format';
import type { ConversationItem } from '../chat/chat-format';
import { readScript, ScriptedEngine, SCRIPTED_MODEL_ID } from './scripted-engine';

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

describe('ScriptedEngine logprobs', () => {
  const generate = async (topLogprobs?: number) => {
    const input = qwenFormat.render({ items: [{ type: 'message', role: 'user', text: JSON.stringify({ script: 'Hé there!', chunk: 3 }) }], tools: [] });
    const generation = new ScriptedEngine().generate({ model: SCRIPTED_MODEL_ID, input, signal: new AbortController().signal, ...(topLogprobs !== undefined ? { topLogprobs } : {}) });
    const deltas = [];
    for await (const delta of generation) deltas.push(delta);
    return deltas;
  };

  it('reports one deterministic logprob per token when asked, with sorted alternatives', async () => {
    const deltas = await generate(2);
    expect(deltas.map((d) => d.logprobs?.map((l) => l.token).join(''))).toEqual(deltas.map((d) => d.text));
    expect(deltas.map((d) => d.logprobs![0]!.logprob)).toEqual([0, -0.1, -0.2]);
    expect(deltas[0]!.logprobs![0]).toEqual({
      token: 'Hé ',
      logprob: 0,
      bytes: [0x48, 0xc3, 0xa9, 0x20],
      top_logprobs: [
        { token: 'Hé ', logprob: 0, bytes: [0x48, 0xc3, 0xa9, 0x20] },
        { token: '<alt 1>', logprob: -1, bytes: [...new TextEncoder().encode('<alt 1>')] },
      ],
    });
    expect((await generate(0))[1]!.logprobs![0]!.top_logprobs).toEqual([]);
  });

  it('reports none when not asked', async () => {
    expect((await generate()).every((d) => d.logprobs === undefined)).toBe(true);
  });
});
