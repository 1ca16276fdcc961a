import { expect, test } from 'vitest';
import type { EngineDelta } from '../../ports/engine';
import { joinDelta } from './remote-generation';

const text = (t: string, logprob?: number): EngineDelta => ({ text: '', tokens: 1, events: [{ type: 'text', text: t }], ...(logprob !== undefined ? { logprobs: [{ token: t, logprob, bytes: [], top_logprobs: [] }] } : {}) });

test('pieces of one read join into one delta while they are text (or reasoning) alone; anything else keeps its place', () => {
  const deltas: EngineDelta[] = [];
  for (const d of [text('a', -1), text('b', -2), { text: '', tokens: 1, events: [{ type: 'reasoning' as const, text: 'r' }] }, { text: '', tokens: 1, events: [{ type: 'reasoning' as const, text: 's' }] }, { text: '', tokens: 0, events: [{ type: 'reasoning_done' as const }, { type: 'text' as const, text: 'c' }] }, text('d')])
    joinDelta(deltas, d);
  expect(deltas).toEqual([
    { text: '', tokens: 2, events: [{ type: 'text', text: 'ab' }], logprobs: [{ token: 'a', logprob: -1, bytes: [], top_logprobs: [] }, { token: 'b', logprob: -2, bytes: [], top_logprobs: [] }] },
    { text: '', tokens: 2, events: [{ type: 'reasoning', text: 'rs' }] },
    { text: '', tokens: 0, events: [{ type: 'reasoning_done' }, { type: 'text', text: 'c' }] },
    text('d'),
  ]);
});
