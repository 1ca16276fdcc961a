/** Issue 12 finding 11: stored responses are bounded, listable, and pruning never touches a running one. */
import { afterEach, expect, test } from 'vitest';
import { PruneResult, StorageSummary, StoredResponseList } from '../../src/protocol/local-storage';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

const open: LocalClient[] = [];
afterEach(async () => {
  for (const local of open.splice(0)) await closeAndCheck(local);
});

interface Listed {
  data: Array<{ id: string; object: string; bytes: number; status: string; previous_response_id: string | null }>;
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}

test('every stored response can be listed with cursor pagination, with its size', async () => {
  const local = await localClient();
  open.push(local);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await local.client.responses.create({ model: 'test-scripted', input: `n${i}` })).id);
  const page1 = (await (await local.http('/v1/local/responses?limit=2&order=asc')).json()) as Listed;
  expect(page1.data.map((d) => d.id)).toEqual(ids.slice(0, 2));
  expect(page1.has_more).toBe(true);
  const page2 = (await (await local.http(`/v1/local/responses?limit=10&order=asc&after=${page1.last_id}`)).json()) as Listed;
  expect(page2.data.map((d) => d.id)).toEqual(ids.slice(2));
  expect(page2.has_more).toBe(false);
  expect(page2.data.every((d) => d.object === 'local.stored_response' && d.bytes > 100)).toBe(true);
  const desc = (await (await local.http('/v1/local/responses')).json()) as Listed;
  expect(desc.data[0]!.id).toBe(ids.at(-1));
  const summary = (await (await local.http('/v1/local/storage')).json()) as { responses: number; conversations: number; bytes: number };
  expect(summary).toMatchObject({ responses: 5, conversations: 5 });
  expect(summary.bytes).toBe(desc.data.reduce((sum, d) => sum + d.bytes, 0));
  const bad = await local.http('/v1/local/responses?limit=0');
  expect(bad.status).toBe(400);
});

test('over the size budget, the oldest conversation goes whole; a running response is never pruned', async () => {
  const local = await localClient({ server: { retention: { maxAgeDays: null, maxBytes: 1 } } });
  open.push(local);
  const old1 = await local.client.responses.create({ model: 'test-scripted', input: 'old' });
  const old2 = await local.client.responses.create({ model: 'test-scripted', input: 'older chat, turn 2', previous_response_id: old1.id });
  const running = await local.client.responses.create({ model: 'test-scripted', input: script('slow answer', { delay_ms: 100, chunk: 1 }), background: true });
  const pruned = (await (await local.http('/v1/local/storage/prune', { method: 'POST' })).json()) as { deleted: number; bytes_freed: number };
  expect(pruned.deleted).toBe(2);
  expect(pruned.bytes_freed).toBeGreaterThan(0);
  await expect(local.client.responses.retrieve(old1.id)).rejects.toMatchObject({ status: 404 });
  await expect(local.client.responses.retrieve(old2.id)).rejects.toMatchObject({ status: 404 });
  const still = await local.client.responses.retrieve(running.id);
  expect(['queued', 'in_progress']).toContain(still.status);
  await local.client.responses.cancel(running.id);
});

test('at start, conversations older than the age limit are pruned', async () => {
  let clock = 1_000_000;
  const first = await localClient({ server: { now: () => clock } });
  open.push(first);
  const old = await first.client.responses.create({ model: 'test-scripted', input: 'long ago' });
  clock += 100 * 24 * 3600;
  const fresh = await first.client.responses.create({ model: 'test-scripted', input: 'today' });
  const later = await localClient({ dbName: first.dbName, server: { now: () => clock, retention: { maxAgeDays: 30, maxBytes: null } } });
  open.push(later);
  await expect(later.client.responses.retrieve(old.id)).rejects.toMatchObject({ status: 404 });
  expect((await later.client.responses.retrieve(fresh.id)).output_text).toBe('You said: today');
});

test('a prune with a policy in its body puts it in force at once, until the runtime stops; a bad policy is a 400', async () => {
  const local = await localClient();
  open.push(local);
  const old = await local.client.responses.create({ model: 'test-scripted', input: 'first chat' });
  const next = await local.client.responses.create({ model: 'test-scripted', input: 'second chat' });
  const before = StorageSummary.parse(await (await local.http('/v1/local/storage')).json());
  StoredResponseList.parse(await (await local.http('/v1/local/responses')).json());
  expect(before.retention).toEqual({ max_age_days: 90, max_bytes: 200_000_000 });
  const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  // A budget that holds the newer chat only: the older goes now, not at the next start.
  const budget = before.bytes - 1;
  const pruned = await local.http('/v1/local/storage/prune', json({ retention: { max_age_days: 30, max_bytes: budget } }));
  expect(PruneResult.parse(await pruned.json())).toMatchObject({ object: 'local.storage.pruned', deleted: 1, retention: { max_age_days: 30, max_bytes: budget } });
  await expect(local.client.responses.retrieve(old.id)).rejects.toMatchObject({ status: 404 });
  expect((await local.client.responses.retrieve(next.id)).id).toBe(next.id);
  expect(((await (await local.http('/v1/local/storage')).json()) as { retention: unknown }).retention).toEqual({ max_age_days: 30, max_bytes: budget });
  // A bare POST keeps the policy in force.
  expect(await (await local.http('/v1/local/storage/prune', { method: 'POST' })).json()).toMatchObject({ deleted: 0, retention: { max_bytes: budget } });
  for (const bad of [{ retention: { max_age_days: 0, max_bytes: null } }, { retention: { max_age_days: null, max_bytes: -1 } }, { retention: { max_age_days: 7 } }, { keep: 1 }]) {
    const response = await local.http('/v1/local/storage/prune', json(bad));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  }
  const noType = await local.http('/v1/local/storage/prune', { method: 'POST', body: '{"retention":null}' });
  expect(noType.status).toBe(400);
  expect(((await (await local.http('/v1/local/storage')).json()) as { retention: unknown }).retention).toEqual({ max_age_days: 30, max_bytes: budget });
});
