import { expect, test } from 'vitest';
import type { StoredSummary } from '../../ports/response-store';
import { conversationsOf, responsesToPrune } from './retention';

const DAY = 24 * 3600;
const s = (id: string, created_at: number, previous: string | null = null, bytes = 100, status: StoredSummary['status'] = 'completed'): StoredSummary => ({
  id,
  created_at,
  status,
  model: 'm',
  previous_response_id: previous,
  conversation_id: null,
  bytes,
});

test('conversations are previous_response_id trees; a missing parent starts one', () => {
  const groups = conversationsOf([s('a', 1), s('b', 2, 'a'), s('c', 3, 'b'), s('d', 4, 'a'), s('e', 5, 'gone'), s('f', 6)], new Set());
  expect(groups.map((g) => g.ids.sort())).toEqual([['a', 'b', 'c', 'd'], ['e'], ['f']]);
  expect(groups[0]).toMatchObject({ lastUsed: 4, bytes: 400, active: false });
});

test('a 20,000-turn chain is grouped without recursion', () => {
  const chain = Array.from({ length: 20_000 }, (_, i) => s(`r${i}`, i, i ? `r${i - 1}` : null));
  expect(conversationsOf(chain, new Set())).toHaveLength(1);
});

test('by age: whole conversations whose last use is older than the limit go; a chat still in use keeps its first turns', () => {
  const now = 200 * DAY;
  const stored = [s('old1', 1 * DAY), s('old2', 2 * DAY, 'old1'), s('chat1', 10 * DAY), s('chat2', 199 * DAY, 'chat1')];
  expect(responsesToPrune(stored, { maxAgeDays: 90, maxBytes: null }, now, new Set()).sort()).toEqual(['old1', 'old2']);
});

test('by size: oldest conversations first until within budget', () => {
  const stored = [s('a', 1, null, 500), s('b', 2, null, 300), s('c', 3, null, 300), s('c2', 4, 'c', 100)];
  // total 1200, budget 700: a (500) goes → 700 ≤ 700, stop.
  expect(responsesToPrune(stored, { maxAgeDays: null, maxBytes: 700 }, 10, new Set())).toEqual(['a']);
  expect(responsesToPrune(stored, { maxAgeDays: null, maxBytes: 100 }, 10, new Set()).sort()).toEqual(['a', 'b', 'c', 'c2']);
});

test('a conversation with a running response (or one stored as running) is never touched', () => {
  const stored = [s('a', 1, null, 500), s('a2', 2, 'a', 10, 'in_progress'), s('b', 3, null, 500), s('c', 4, null, 500)];
  expect(responsesToPrune(stored, { maxAgeDays: null, maxBytes: 0 }, 10, new Set(['c']))).toEqual(['b']);
});

test('the responses of one conversation (and what chains to them) are one unit, kept by its latest use', () => {
  const now = 200 * DAY;
  const inConversation = (id: string, at: number): StoredSummary => ({ ...s(id, at), conversation_id: 'conv_1' });
  const stored = [inConversation('t1', 1 * DAY), inConversation('t2', 199 * DAY), s('branch', 2 * DAY, 't1'), s('alone', 3 * DAY)];
  const groups = conversationsOf(stored, new Set());
  expect(groups.map((g) => [g.ids.sort(), g.conversationId])).toEqual([
    [['branch', 't1', 't2'], 'conv_1'],
    [['alone'], null],
  ]);
  // t1 is old, but its conversation was used yesterday: it stays.
  expect(responsesToPrune(stored, { maxAgeDays: 90, maxBytes: null }, now, new Set())).toEqual(['alone']);
  expect(responsesToPrune(stored, { maxAgeDays: 90, maxBytes: null }, 400 * DAY, new Set()).sort()).toEqual(['alone', 'branch', 't1', 't2']);
});
