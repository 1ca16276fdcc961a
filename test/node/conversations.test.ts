/** The Conversations API and `conversation` on create, through the real openai SDK. */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ConversationItem } from 'openai/resources/conversations/items';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient;
beforeEach(async () => {
  local = await localClient();
});
afterEach(() => closeAndCheck(local));

const user = (text: string) => ({ type: 'message' as const, role: 'user' as const, content: text });

async function allItems(id: string, order: 'asc' | 'desc' = 'asc'): Promise<ConversationItem[]> {
  const items: ConversationItem[] = [];
  for await (const item of local.client.conversations.items.list(id, { order, limit: 100 })) items.push(item);
  return items;
}

/** Polls until the response is terminal (with a pause: a running response answers without touching storage). */
async function finished(id: string) {
  for (;;) {
    const r = await local.client.responses.retrieve(id);
    if (r.status !== 'queued' && r.status !== 'in_progress') return r;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function texts(items: ConversationItem[]): string[] {
  return items.map((item) => (item.type === 'message' ? item.content.map((c) => ('text' in c ? c.text : '')).join('') : item.type));
}

describe('conversations', () => {
  test('create with items and metadata, retrieve, update metadata, delete', async () => {
    const created = await local.client.conversations.create({ items: [user('hello')], metadata: { topic: 'demo' } });
    expect(created).toEqual({ id: expect.stringMatching(/^conv_/), object: 'conversation', created_at: expect.any(Number), metadata: { topic: 'demo' } });
    expect(await local.client.conversations.retrieve(created.id)).toEqual(created);
    const updated = await local.client.conversations.update(created.id, { metadata: { topic: 'other', k: 'v' } });
    expect(updated.metadata).toEqual({ topic: 'other', k: 'v' });
    expect((await local.client.conversations.retrieve(created.id)).metadata).toEqual({ topic: 'other', k: 'v' });
    expect(await local.client.conversations.delete(created.id)).toEqual({ id: created.id, object: 'conversation.deleted', deleted: true });
    await expect(local.client.conversations.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(local.client.conversations.items.list(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(local.client.conversations.delete(created.id)).rejects.toMatchObject({ status: 404 });
  });

  test('an empty create works; more than 20 items or 16 metadata keys is a 400', async () => {
    const empty = await local.client.conversations.create();
    expect(empty.metadata).toEqual({});
    expect(await allItems(empty.id)).toEqual([]);
    const many = Array.from({ length: 21 }, (_, i) => user(`m${i}`));
    await expect(local.client.conversations.create({ items: many })).rejects.toMatchObject({ status: 400, param: 'items', code: 'array_above_max_length' });
    await expect(local.client.conversations.items.create(empty.id, { items: many })).rejects.toMatchObject({ status: 400, param: 'items' });
    const keys = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v']));
    await expect(local.client.conversations.create({ metadata: keys })).rejects.toMatchObject({ status: 400 });
    await expect(local.client.conversations.update(empty.id, { metadata: keys })).rejects.toMatchObject({ status: 400 });
  });

  test('items: add, list with pagination and order, retrieve, delete', async () => {
    const conv = await local.client.conversations.create({ items: Array.from({ length: 20 }, (_, i) => user(`m${i}`)) });
    const added = await local.client.conversations.items.create(conv.id, { items: Array.from({ length: 5 }, (_, i) => user(`m${20 + i}`)) });
    expect(added.data).toHaveLength(5);
    expect(added).toMatchObject({ object: 'list', first_id: added.data[0]!.id, last_id: added.data[4]!.id, has_more: false });

    // Pages of 10: the SDK follows last_id → after until has_more is false.
    const pages: number[] = [];
    const seen: ConversationItem[] = [];
    for (let page = await local.client.conversations.items.list(conv.id, { limit: 10, order: 'asc' }); ; page = await page.getNextPage()) {
      pages.push(page.data.length);
      seen.push(...page.data);
      if (!page.hasNextPage()) break;
    }
    expect(pages).toEqual([10, 10, 5]);
    expect(texts(seen)).toEqual(Array.from({ length: 25 }, (_, i) => `m${i}`));
    // Default order is desc.
    const first = await local.client.conversations.items.list(conv.id, { limit: 3 });
    expect(texts(first.data)).toEqual(['m24', 'm23', 'm22']);
    expect(first.has_more).toBe(true);
    const next = await local.client.conversations.items.list(conv.id, { limit: 3, after: first.data[2]!.id });
    expect(texts(next.data)).toEqual(['m21', 'm20', 'm19']);

    const target = seen[3]!;
    expect(await local.client.conversations.items.retrieve(target.id!, { conversation_id: conv.id })).toEqual(target);
    const afterDelete = await local.client.conversations.items.delete(target.id!, { conversation_id: conv.id });
    expect(afterDelete).toMatchObject({ id: conv.id, object: 'conversation' });
    await expect(local.client.conversations.items.retrieve(target.id!, { conversation_id: conv.id })).rejects.toMatchObject({ status: 404 });
    await expect(local.client.conversations.items.delete(target.id!, { conversation_id: conv.id })).rejects.toMatchObject({ status: 404 });
    expect(texts(await allItems(conv.id))).not.toContain('m3');
    await expect(local.client.conversations.items.list(conv.id, { after: 'msg_nope' })).rejects.toMatchObject({ status: 400, param: 'after' });
    await expect(local.client.conversations.items.list(conv.id, { include: ['message.input_image.image_url'] })).rejects.toMatchObject({ status: 400, param: 'include' });
  });
});

describe('responses.create({ conversation })', () => {
  test('the conversation is the context, and the turn is appended (string id and {id})', async () => {
    const conv = await local.client.conversations.create({ items: [user(script('Hi from the script.'))] });
    // No input: the conversation's last user message is what the model reads.
    const first = await local.client.responses.create({ model: 'test-scripted', conversation: conv.id });
    expect(first.output_text).toBe('Hi from the script.');
    expect(first.conversation).toEqual({ id: conv.id });
    expect(first.previous_response_id).toBeNull();
    const second = await local.client.responses.create({ model: 'test-scripted', conversation: { id: conv.id }, input: 'second turn' });
    expect(second.output_text).toBe('You said: second turn');
    // The model was shown the earlier turns too: its prompt is longer than the lone input's.
    const alone = await local.client.responses.create({ model: 'test-scripted', input: 'second turn' });
    expect(second.usage!.input_tokens).toBeGreaterThan(alone.usage!.input_tokens + 5);

    const items = await allItems(conv.id);
    expect(texts(items)).toEqual([script('Hi from the script.'), 'Hi from the script.', 'second turn', 'You said: second turn']);
    // Items keep the ids they have in the responses.
    expect(items[1]!.id).toBe(first.output[0]!.id);
    expect((await local.client.responses.inputItems.list(second.id)).data[0]!.id).toBe(items[2]!.id);
    expect((await local.client.responses.retrieve(second.id)).conversation).toEqual({ id: conv.id });
  });

  test('streamed and background turns append when they finish', async () => {
    const conv = await local.client.conversations.create();
    const stream = await local.client.responses.create({ model: 'test-scripted', conversation: conv.id, input: 'streamed', stream: true });
    let completed = false;
    for await (const event of stream) if (event.type === 'response.completed') completed = event.response.conversation?.id === conv.id;
    expect(completed).toBe(true);
    const bg = await local.client.responses.create({ model: 'test-scripted', conversation: conv.id, input: 'background', background: true });
    expect(bg.status).toBe('queued');
    expect((await finished(bg.id)).status).toBe('completed');
    expect(texts(await allItems(conv.id))).toEqual(['streamed', 'You said: streamed', 'background', 'You said: background']);
  });

  test('failed and cancelled turns add nothing; max_output_tokens (incomplete) adds the partial turn', async () => {
    const conv = await local.client.conversations.create({ items: [user('before')] });
    const failed = await local.client.responses.create({ model: 'test-scripted', conversation: conv.id, input: script('a long answer that breaks', { fail_after: 2 }) });
    expect(failed.status).toBe('failed');
    expect(texts(await allItems(conv.id))).toEqual(['before']);

    const slow = await local.client.responses.create({ model: 'test-scripted', conversation: conv.id, input: script('x'.repeat(400), { delay_ms: 20 }), background: true });
    const cancelled = await local.client.responses.cancel(slow.id);
    expect(cancelled.status).toBe('cancelled');
    expect(texts(await allItems(conv.id))).toEqual(['before']);

    const cut = await local.client.responses.create({ model: 'test-scripted', conversation: conv.id, input: script('y'.repeat(400)), max_output_tokens: 16 });
    expect(cut).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    const items = await allItems(conv.id);
    expect(items).toHaveLength(3);
    expect(items[2]).toMatchObject({ type: 'message', role: 'assistant', status: 'incomplete', id: cut.output[0]!.id });
  });

  test('conversation with previous_response_id, an unknown conversation, and a running turn are refused', async () => {
    const conv = await local.client.conversations.create();
    const r = await local.client.responses.create({ model: 'test-scripted', input: 'x' });
    await expect(local.client.responses.create({ model: 'test-scripted', conversation: conv.id, previous_response_id: r.id, input: 'y' })).rejects.toMatchObject({
      status: 400,
      code: 'mutually_exclusive_parameters',
    });
    await expect(local.client.responses.create({ model: 'test-scripted', conversation: 'conv_nope', input: 'y' })).rejects.toMatchObject({ status: 404, param: 'conversation' });
    const running = await local.client.responses.create({ model: 'test-scripted', conversation: conv.id, input: script('z'.repeat(200), { delay_ms: 20 }), background: true });
    await expect(local.client.responses.create({ model: 'test-scripted', conversation: conv.id, input: 'too soon' })).rejects.toMatchObject({ status: 400, code: 'conversation_locked' });
    // A running turn shows nothing in the conversation, however far it got.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await allItems(conv.id)).toEqual([]);
    await local.client.responses.cancel(running.id);
    expect((await local.client.responses.create({ model: 'test-scripted', conversation: conv.id, input: 'now' })).status).toBe('completed');
  });

  test('store: false reads the conversation but appends nothing', async () => {
    const conv = await local.client.conversations.create({ items: [user(script('from context'))] });
    const r = await local.client.responses.create({ model: 'test-scripted', conversation: conv.id, store: false });
    expect(r.output_text).toBe('from context');
    expect(await allItems(conv.id)).toHaveLength(1);
  });

  test('deleting a conversation deletes its items, not its responses; a deleted conversation gains nothing', async () => {
    const conv = await local.client.conversations.create();
    const r = await local.client.responses.create({ model: 'test-scripted', conversation: conv.id, input: 'kept' });
    const running = await local.client.responses.create({ model: 'test-scripted', conversation: conv.id, input: script('w'.repeat(80), { delay_ms: 10 }), background: true });
    await local.client.conversations.delete(conv.id);
    expect((await local.client.responses.retrieve(r.id)).output_text).toBe('You said: kept');
    expect((await local.client.responses.inputItems.list(r.id)).data).toHaveLength(1);
    expect((await finished(running.id)).status).toBe('completed');
    await expect(local.client.conversations.items.list(conv.id)).rejects.toMatchObject({ status: 404 });
    // An item of the deleted conversation's responses can still be referenced.
    const again = await local.client.responses.create({ model: 'test-scripted', input: [{ type: 'item_reference', id: r.output[0]!.id! }, user('next')] });
    expect(again.status).toBe('completed');
  });

  test('an item added with the Conversations API can be referenced by id', async () => {
    const conv = await local.client.conversations.create({ items: [user('referenced text')] });
    const [item] = await allItems(conv.id);
    const r = await local.client.responses.create({ model: 'test-scripted', input: [{ type: 'item_reference', id: item!.id! }] });
    expect(r.output_text).toBe('You said: referenced text');
  });
});

test('retention prunes a conversation and its responses together, by the conversation\'s last use', async () => {
  let clock = 1_000_000;
  const aged = await localClient({ server: { now: () => clock, retention: { maxAgeDays: 1, maxBytes: null } } });
  try {
    const conv = await aged.client.conversations.create();
    const first = await aged.client.responses.create({ model: 'test-scripted', conversation: conv.id, input: 'day one' });
    clock += 2 * 24 * 3600;
    const second = await aged.client.responses.create({ model: 'test-scripted', conversation: conv.id, input: 'day three' });
    await aged.http('/v1/local/storage/prune', { method: 'POST' });
    // The first turn is old, but the conversation was just used: everything stays.
    expect((await aged.client.responses.retrieve(first.id)).id).toBe(first.id);
    clock += 2 * 24 * 3600;
    await aged.http('/v1/local/storage/prune', { method: 'POST' });
    await expect(aged.client.responses.retrieve(second.id)).rejects.toMatchObject({ status: 404 });
    await expect(aged.client.conversations.retrieve(conv.id)).rejects.toMatchObject({ status: 404 });
  } finally {
    await closeAndCheck(aged);
  }
});
