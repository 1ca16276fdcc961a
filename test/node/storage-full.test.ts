/** Issue 12 finding 2: with the origin's storage full nothing accepted is lost, and the runtime still starts. */
import { afterEach, expect, test } from 'vitest';
import { APIError } from 'openai';
import { FullDiskStore } from '../fakes/full-disk-store';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

const open: LocalClient[] = [];
afterEach(async () => {
  for (const local of open.splice(0)) await closeAndCheck(local);
});

async function withDisk(dbName?: string, fullAtStart = false): Promise<{ local: LocalClient; disk: FullDiskStore }> {
  let disk!: FullDiskStore;
  const local = await localClient({
    ...(dbName ? { dbName } : {}),
    wrapStore: (store) => {
      disk = new FullDiskStore(store);
      disk.full = fullAtStart;
      return disk;
    },
  });
  open.push(local);
  return { local, disk };
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition never became true');
}

test('a create that cannot be stored is refused with storage_full and a message that says what to do', async () => {
  const { local, disk } = await withDisk();
  disk.full = true;
  const err = await local.client.responses.create({ model: 'test-scripted', input: 'hello' }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(APIError);
  const api = err as APIError;
  expect(api.status).toBe(507);
  expect(api.code).toBe('storage_full');
  expect(api.message).toMatch(/storage for the app is full.*store: false/);
  // store: false needs no storage at all, and still works.
  disk.full = true;
  const r = await local.client.responses.create({ model: 'test-scripted', input: 'hello', store: false });
  expect(r.output_text).toBe('You said: hello');
});

test('a run whose final save is refused ends completed for its client, chains on, and is written once space is back', async () => {
  const { local, disk } = await withDisk();
  const started = await local.client.responses.create({ model: 'test-scripted', input: script('abcdefghijkl', { delay_ms: 15, chunk: 1 }), background: true, stream: false });
  await until(async () => (await local.client.responses.retrieve(started.id)).status === 'in_progress');
  disk.full = true;
  await until(async () => (await local.client.responses.retrieve(started.id)).status === 'completed');
  expect(disk.refused).toBeGreaterThan(0);

  const done = await local.client.responses.retrieve(started.id);
  expect(done.output_text).toBe('abcdefghijkl');
  // Not "404 not found": the response exists and is finished.
  const cancel = await local.client.responses.cancel(started.id).catch((e: unknown) => e as APIError);
  expect((cancel as APIError).status).toBe(400);
  // The resumable stream ends with its terminal event.
  const events = [];
  for await (const e of await local.client.responses.retrieve(started.id, { stream: true, starting_after: 0 })) events.push(e.type);
  expect(events.at(-1)).toBe('response.completed');

  disk.full = false;
  const next = await local.client.responses.create({ model: 'test-scripted', input: 'more', previous_response_id: started.id });
  expect(next.output_text).toBe('You said: more');

  // A later runtime on the same database sees the completed response: the held write landed.
  const { local: later } = await withDisk(local.dbName);
  const reread = await later.client.responses.retrieve(started.id);
  expect(reread.status).toBe('completed');
  expect(reread.output_text).toBe('abcdefghijkl');
});

test('the runtime starts while storage is full: reads work, writes fail clearly', async () => {
  const { local: first } = await withDisk();
  const kept = await first.client.responses.create({ model: 'test-scripted', input: 'keep me' });
  const { local } = await withDisk(first.dbName, true);
  expect((await local.client.responses.retrieve(kept.id)).output_text).toBe('You said: keep me');
  const err = (await local.client.responses.create({ model: 'test-scripted', input: 'x' }).catch((e: unknown) => e)) as APIError;
  expect(err.code).toBe('storage_full');
});
