import { expect, test } from 'vitest';
import type { StoredResponse } from '../protocol/local-storage';
import { newTurn, type Conversation } from './saved-chat';
import { storageUsage } from './storage-usage';

const stored = (id: string, bytes: number, created_at: number, previous: string | null = null): StoredResponse => ({
  object: 'local.stored_response',
  id,
  created_at,
  status: 'completed',
  model: 'm',
  previous_response_id: previous,
  bytes,
});

function chat(id: string, responseIds: Array<string | null>): Conversation {
  const turns = responseIds.map((responseId) => ({ ...newTurn('hi', 'm', 0), responseId }));
  return { id, title: `Chat ${id}`, createdAt: 0, updatedAt: 0, turns };
}

test("stored responses are grouped by the app's chats, biggest first; the rest is 'not from a chat'", () => {
  const responses = [stored('a1', 100, 1), stored('a2', 150, 2, 'a1'), stored('b1', 500, 3), stored('code1', 40, 4), stored('code2', 60, 5, 'gone')];
  const usage = storageUsage(responses, [chat('A', ['a1', null, 'a2']), chat('B', ['b1']), chat('C', [null])]);
  expect(usage).toEqual({
    responses: 5,
    bytes: 850,
    chats: [
      { conversationId: 'B', title: 'Chat B', responses: 1, bytes: 500, lastUsed: 3 },
      { conversationId: 'A', title: 'Chat A', responses: 2, bytes: 250, lastUsed: 2 },
    ],
    other: { responses: 2, bytes: 100 },
  });
});

test("a response chained from code onto a chat's turn counts for that chat (retention deletes them together)", () => {
  const usage = storageUsage([stored('a1', 100, 1), stored('x1', 10, 2, 'a1'), stored('x2', 10, 3, 'x1')], [chat('A', ['a1'])]);
  expect(usage.chats).toEqual([{ conversationId: 'A', title: 'Chat A', responses: 3, bytes: 120, lastUsed: 3 }]);
  expect(usage.other).toEqual({ responses: 0, bytes: 0 });
});

test('a chat whose responses are all gone is not listed (its conversation holds the turns: it goes on), nor one that never got a response', () => {
  const usage = storageUsage([stored('b1', 5, 1)], [chat('A', ['pruned1', 'pruned2']), chat('B', ['b1', 'pruned3']), chat('C', [null])]);
  expect(usage.chats.map((c) => c.conversationId)).toEqual(['B']);
});

test('a long chain from code is walked without recursion', () => {
  const chain = Array.from({ length: 20_000 }, (_, i) => stored(`r${i}`, 1, i, i ? `r${i - 1}` : null));
  expect(storageUsage(chain, [chat('A', ['r0'])]).chats[0]!.responses).toBe(20_000);
});

test("a response answered in a chat's conversation is the chat's, though no turn of the page knows it", () => {
  const inConversation = { ...stored('c1', 70, 6), conversation_id: 'conv_1' };
  const elsewhere = { ...stored('c2', 30, 7), conversation_id: 'conv_other' };
  const usage = storageUsage([inConversation, elsewhere], [chat('conv_1', [])]);
  expect(usage.chats).toEqual([{ conversationId: 'conv_1', title: 'Chat conv_1', responses: 1, bytes: 70, lastUsed: 6 }]);
  expect(usage.other).toEqual({ responses: 1, bytes: 30 });
});
