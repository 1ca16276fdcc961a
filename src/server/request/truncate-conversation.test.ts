import { describe, expect, it } from 'vitest';
import type { ConversationItem } from '../../chat/chat-format';
import { dropTurns, truncateToFit, turnsOf } from './truncate-conversation';

const user = (text: string): ConversationItem => ({ type: 'message', role: 'user', text });
const assistant = (text: string): ConversationItem => ({ type: 'message', role: 'assistant', text });
const system: ConversationItem = { type: 'message', role: 'developer', text: 'Answer in French.' };
const call: ConversationItem = { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' };
const output: ConversationItem = { type: 'function_call_output', call_id: 'c1', output: '42' };

const conversation = [system, user('one'), call, output, assistant('It is 42.'), user('two'), assistant('Deux.'), user('three')];
const size = async (items: ConversationItem[]) => items.length;

describe('truncation: auto', () => {
  it('splits at user messages, so a call stays with its output and its answer', () => {
    expect(turnsOf(conversation)).toEqual([[system], [user('one'), call, output, assistant('It is 42.')], [user('two'), assistant('Deux.')], [user('three')]]);
  });

  it('drops the fewest oldest turns that make it fit, keeping instructions', async () => {
    expect(dropTurns(turnsOf(conversation), 2)).toEqual([system, user('two'), assistant('Deux.'), user('three')]);
    expect(await truncateToFit(conversation, 4, size)).toEqual([system, user('two'), assistant('Deux.'), user('three')]);
    expect(await truncateToFit(conversation, 3, size)).toEqual([system, user('three')]);
  });

  it('keeps the newest turn even when it alone is too long (the caller then answers 400)', async () => {
    expect(await truncateToFit(conversation, 1, size)).toEqual([system, user('three')]);
  });
});
