/**
 * `GET /v1/local/conversations` (the local list OpenAI's API lacks): OpenAI's conversation
 * objects plus `updated_at` / `running_response_id`, most recently used first, in cursor pages.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { LocalConversationList } from '../../src/protocol/local-conversations';
import { StoredResponseList } from '../../src/protocol/local-storage';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient;
let clock = 1_000;
beforeEach(async () => {
  clock = 1_000;
  local = await localClient({ server: { now: () => clock } });
});
afterEach(() => closeAndCheck(local));

async function list(query = ''): Promise<LocalConversationList> {
  const response = await local.http(`/v1/local/conversations${query}`);
  expect(response.status).toBe(200);
  return LocalConversationList.parse(await response.json());
}

test('lists every conversation with its metadata, the most recently used first; a turn moves it up', async () => {
  const a = await local.client.conversations.create({ metadata: { title: 'A' } });
  clock = 1_010;
  const b = await local.client.conversations.create({ metadata: { title: 'B' } });
  let page = await list();
  expect(page.data.map((c) => [c.id, c.metadata.title, c.updated_at, c.running_response_id])).toEqual([
    [b.id, 'B', 1_010, null],
    [a.id, 'A', 1_000, null],
  ]);
  expect(page).toMatchObject({ object: 'list', first_id: b.id, last_id: a.id, has_more: false });

  clock = 1_020;
  const turn = await local.client.responses.create({ model: 'test-scripted', input: 'hi', conversation: a.id });
  page = await list();
  expect(page.data.map((c) => [c.id, c.updated_at])).toEqual([
    [a.id, 1_020],
    [b.id, 1_010],
  ]);
  // The stored responses say which conversation they belong to (the app groups storage by it).
  const stored = StoredResponseList.parse(await (await local.http('/v1/local/responses')).json());
  expect(stored.data.find((s) => s.id === turn.id)?.conversation_id).toBe(a.id);

  await local.client.conversations.delete(a.id);
  expect((await list()).data.map((c) => c.id)).toEqual([b.id]);
});

test('a response still running in a conversation is named, so a reloaded client can resume it', async () => {
  const conversation = await local.client.conversations.create();
  const running = await local.client.responses.create({ model: 'test-scripted', input: script('slow answer here', { delay_ms: 40, chunk: 1 }), conversation: conversation.id, background: true });
  expect((await list()).data[0]?.running_response_id).toBe(running.id);
  await local.client.responses.cancel(running.id);
  expect((await list()).data[0]?.running_response_id).toBeNull();
});

test('cursor pagination: limit, after, order asc; an unknown after is a 400', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    clock = 2_000 + i;
    ids.push((await local.client.conversations.create()).id);
  }
  const first = await list('?limit=2');
  expect(first.data.map((c) => c.id)).toEqual([ids[4], ids[3]]);
  expect(first.has_more).toBe(true);
  const second = await list(`?limit=2&after=${first.last_id}`);
  expect(second.data.map((c) => c.id)).toEqual([ids[2], ids[1]]);
  expect((await list(`?limit=2&after=${second.last_id}`)).data.map((c) => c.id)).toEqual([ids[0]]);
  expect((await list('?order=asc&limit=100')).data.map((c) => c.id)).toEqual(ids);
  const bad = await local.http('/v1/local/conversations?after=conv_nope');
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { error: { param: string } }).error.param).toBe('after');
  expect((await local.http('/v1/local/conversations?limit=0')).status).toBe(400);
});
