/**
 * The chat app's store on the real server (fake-indexeddb): a chat is one conversation,
 * each turn `responses.create({conversation})`; the list, the turns of a reopened chat,
 * rename and delete go through the Conversations API; chats saved by older versions in the
 * app's own database move onto the server.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createApi, type Api } from '../../src/ui/api';
import { openAppDb, saveConversation, type AppDatabase } from '../../src/ui/app-db';
import { ChatStore } from '../../src/ui/chat-store';
import { answerText, newTurn } from '../../src/ui/saved-chat';
import { DEFAULT_SETTINGS } from '../../src/ui/settings';
import { closeAndCheck, localClient, type LocalClient } from '../support/local-client';

let local: LocalClient;
let api: Api;
let db: AppDatabase;
let n = 0;
const stores: ChatStore[] = [];

beforeEach(async () => {
  local = await localClient();
  api = createApi((input, init) => local.server.fetch(new Request(input, init)), 'http://local');
  db = await openAppDb(`chat-store-test-${process.pid}-${n++}`);
});
afterEach(async () => {
  for (const store of stores.splice(0)) store.dispose();
  db.close();
  await closeAndCheck(local);
});

/** A store as a page opening the app makes it. */
function open(): ChatStore {
  const store = new ChatStore(Promise.resolve(db), () => ({ ...DEFAULT_SETTINGS, model: 'test-scripted' }));
  stores.push(store);
  store.connect(api);
  return store;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

async function items(id: string): Promise<string[]> {
  const texts: string[] = [];
  for await (const item of local.client.conversations.items.list(id, { order: 'asc' }))
    texts.push(item.type === 'message' ? item.content.map((c) => ('text' in c ? c.text : '')).join('') : item.type);
  return texts;
}

test('a chat is one conversation titled by its first message; every turn answers in it', async () => {
  const chat = open();
  await until(() => chat.get().loaded, 'the list');
  await chat.send('hello there');
  await chat.send('and again');
  const id = chat.get().activeId!;
  expect(id).toMatch(/^conv_/);
  expect((await local.client.conversations.retrieve(id)).metadata).toEqual({ title: 'hello there' });
  expect(await items(id)).toEqual(['hello there', 'You said: hello there', 'and again', 'You said: and again']);
  const second = await local.client.responses.retrieve(chat.active!.turns[1]!.responseId!);
  expect(second.conversation).toEqual({ id });
  expect(second.previous_response_id).toBeNull();
});

test('reopened (a reload), the chat lists and shows its turns from the items, with what code added', async () => {
  const first = open();
  await until(() => first.get().loaded, 'the list');
  await first.send('from the app');
  const id = first.get().activeId!;
  await local.client.responses.create({ model: 'test-scripted', input: 'from code', conversation: id });

  const again = open();
  await until(() => again.get().loaded, 'the list');
  expect(again.get().conversations.map((c) => [c.id, c.title, c.opened])).toEqual([[id, 'from the app', false]]);
  again.select(id);
  await until(() => again.active?.opened === true, 'the turns');
  expect(again.active!.turns.map((t) => [t.input, answerText(t)])).toEqual([
    ['from the app', 'You said: from the app'],
    ['from code', 'You said: from code'],
  ]);
});

test('edit of the last message replaces its turn in the conversation; rename and delete go through the conversation', async () => {
  const chat = open();
  await until(() => chat.get().loaded, 'the list');
  await chat.send('one');
  await chat.send('two');
  const id = chat.get().activeId!;
  const replaced = chat.active!.turns[1]!.responseId!;
  await chat.editLast('three');
  expect(await items(id)).toEqual(['one', 'You said: one', 'three', 'You said: three']);
  await expect(local.client.responses.retrieve(replaced)).rejects.toMatchObject({ status: 404 });

  await chat.rename(id, 'Numbers');
  expect((await local.client.conversations.retrieve(id)).metadata).toEqual({ title: 'Numbers' });
  const responses = chat.active!.turns.map((t) => t.responseId!);
  await chat.remove(id);
  expect(chat.get().conversations).toEqual([]);
  await expect(local.client.conversations.retrieve(id)).rejects.toMatchObject({ status: 404 });
  for (const r of responses) await expect(local.client.responses.retrieve(r)).rejects.toMatchObject({ status: 404 });
});

test("chats saved by an older version move onto the server whole (reasoning too), or as text when their responses are gone", async () => {
  const stored = await local.client.responses.create({ model: 'test-scripted', input: JSON.stringify({ script: '<think>hm</think>Old answer.' }) });
  const turn = { ...newTurn('old question', 'test-scripted', 1), responseId: stored.id, status: 'completed' as const, output: stored.output };
  await saveConversation(db, { id: 'legacy-1', title: 'Old chat', createdAt: 1, updatedAt: 2_000, turns: [turn] });
  const gone = { ...turn, responseId: 'resp_gone', output: stored.output.map((o) => ({ ...o, id: `${o.id}_gone` })) };
  await saveConversation(db, { id: 'legacy-2', title: 'Pruned chat', createdAt: 1, updatedAt: 1_000, turns: [gone] });

  const chat = open();
  await until(() => chat.get().loaded, 'the list');
  expect(chat.get().conversations.map((c) => c.title)).toEqual(['Old chat', 'Pruned chat']);
  const [whole, text] = chat.get().conversations;
  expect(await items(whole!.id)).toEqual(['old question', 'reasoning', 'Old answer.']);
  expect(await items(text!.id)).toEqual(['old question', 'Old answer.']);
  expect(await db.count('conversations')).toBe(0);
  // A second start finds nothing left to move.
  const again = open();
  await until(() => again.get().loaded, 'the list');
  expect(again.get().conversations).toHaveLength(2);
});
