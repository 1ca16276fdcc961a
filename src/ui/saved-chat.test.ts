import { describe, expect, test } from 'vitest';
import { approvalDecisions, newApprovalTurn, newTurn, titleFrom, tokensPerSecond } from './saved-chat';

describe('titleFrom', () => {
  test('first line, whitespace collapsed, shortened with an ellipsis', () => {
    expect(titleFrom('  Hello   world \nsecond line')).toBe('Hello world');
    expect(titleFrom('x'.repeat(80))).toBe(`${'x'.repeat(57)}…`);
    expect(titleFrom('   ')).toBe('New chat');
  });
});

describe('tokensPerSecond', () => {
  test('output tokens over the time since the first token', () => {
    const turn = {
      ...newTurn('a', 'm', 0),
      firstTokenAt: 1000,
      finishedAt: 3000,
      usage: { input_tokens: 1, output_tokens: 40, total_tokens: 41, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
    };
    expect(tokensPerSecond(turn)).toBe(20);
    expect(tokensPerSecond({ ...turn, finishedAt: null })).toBeNull();
  });
});

test('an approval turn says what was decided, and the decisions of a conversation are found by request id', () => {
  const approve = newApprovalTurn({ requestId: 'mcpr_1', approve: true, server: 'calc', tool: 'add' }, 'm', 0);
  const deny = newApprovalTurn({ requestId: 'mcpr_2', approve: false, server: 'calc', tool: 'mul' }, 'm', 0);
  expect(approve.input).toBe('Approved: add on calc');
  expect(deny.input).toBe('Denied: mul on calc');
  expect([...approvalDecisions([newTurn('hi', 'm', 0), approve, deny])]).toEqual([
    ['mcpr_1', true],
    ['mcpr_2', false],
  ]);
});
