/** Files and vector stores in the storage totals and under retention: a conversation's store (metadata `conversation_id`) counts in it and goes with it; expired stores and files go. */
import { afterEach, expect, test } from 'vitest';
import { toFile } from 'openai';
import { StorageSummary } from '../../src/protocol/local-storage';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

const open: LocalClient[] = [];
afterEach(async () => {
  for (const local of open.splice(0)) await closeAndCheck(local);
});

test('the totals count files and stores; pruning a conversation deletes its vector store and the files only it held', async () => {
  let clock = 1_800_000_000;
  const local = await localClient({ files: true, server: { now: () => clock, retention: { maxAgeDays: 30, maxBytes: null } } });
  open.push(local);
  const sdk = local.client;
  const conversation = await sdk.conversations.create({});
  await sdk.responses.create({ model: 'test-scripted', conversation: conversation.id, input: script('ok') });
  const chatStore = await sdk.vectorStores.create({ name: 'chat', metadata: { conversation_id: conversation.id } });
  const chatFile = await sdk.vectorStores.files.uploadAndPoll(chatStore.id, await toFile(new TextEncoder().encode('only for the chat'), 'chat.txt'), { pollIntervalMs: 5 });
  const ownStore = await sdk.vectorStores.create({ name: 'from code' });
  const ownFile = await sdk.vectorStores.files.uploadAndPoll(ownStore.id, await toFile(new TextEncoder().encode('kept'), 'own.txt'), { pollIntervalMs: 5 });

  const totals = StorageSummary.parse(await (await local.http('/v1/local/storage')).json());
  expect(totals).toMatchObject({ files: 2, vector_stores: 2 });
  expect(totals.file_bytes).toBe('only for the chat'.length + 'kept'.length);
  expect(totals.vector_store_bytes).toBeGreaterThan(0);

  clock += 31 * 86_400;
  const pruned = (await (await local.http('/v1/local/storage/prune', { method: 'POST' })).json()) as { deleted: number; bytes_freed: number };
  expect(pruned.deleted).toBe(1);
  expect((await sdk.vectorStores.list()).data.map((s) => s.id)).toEqual([ownStore.id]);
  expect((await sdk.files.list()).data.map((f) => f.id)).toEqual([ownFile.id]);
  void chatFile;
});

test('an expired vector store and an expired file are deleted by the next pass', async () => {
  let clock = 1_800_000_000;
  const local = await localClient({ files: true, server: { now: () => clock } });
  open.push(local);
  const sdk = local.client;
  const store = await sdk.vectorStores.create({ name: 'short-lived', expires_after: { anchor: 'last_active_at', days: 1 } });
  const file = await sdk.files.create({ file: await toFile(new TextEncoder().encode('x'), 'x.txt'), purpose: 'user_data', expires_after: { anchor: 'created_at', seconds: 3600 } });
  clock += 2 * 86_400;
  expect((await sdk.vectorStores.retrieve(store.id)).status).toBe('expired');
  await local.http('/v1/local/storage/prune', { method: 'POST' });
  expect((await sdk.vectorStores.list()).data).toHaveLength(0);
  expect((await sdk.files.list()).data).toHaveLength(0);
  void file;
});
