/** The Files API through the real `openai` SDK: upload (multipart), list, retrieve, content, delete; limits and errors. */
import { expect, test } from 'vitest';
import { APIError, toFile } from 'openai';
import { failed, clientsWithFiles } from '../support/local-client';
import { FullDiskFileStore } from '../fakes/full-disk-file-store';

const client = clientsWithFiles();

test('upload, retrieve, list, read back the bytes, delete', async () => {
  const { client: sdk } = await client();
  const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
  const created = await sdk.files.create({ file: await toFile(bytes, 'données é.bin', { type: 'application/octet-stream' }), purpose: 'assistants' });
  expect(created).toMatchObject({ object: 'file', bytes: 300_000, filename: 'données é.bin', purpose: 'assistants', status: 'processed', expires_at: null });
  expect(created.id).toMatch(/^file_/);
  expect(await sdk.files.retrieve(created.id)).toEqual(created);

  const second = await sdk.files.create({ file: await toFile(new TextEncoder().encode('hello'), 'notes.txt'), purpose: 'user_data', expires_after: { anchor: 'created_at', seconds: 3600 } });
  expect(second.expires_at).toBe(second.created_at + 3600);
  const all = await sdk.files.list();
  expect(all.data.map((f) => f.id)).toEqual([second.id, created.id]);
  expect((await sdk.files.list({ purpose: 'user_data' })).data.map((f) => f.id)).toEqual([second.id]);
  expect((await sdk.files.list({ order: 'asc', limit: 1 })).data.map((f) => f.id)).toEqual([created.id]);

  const content = await sdk.files.content(created.id);
  expect(new Uint8Array(await content.arrayBuffer())).toEqual(bytes);
  expect(await sdk.files.waitForProcessing(created.id)).toMatchObject({ status: 'processed' });

  expect(await sdk.files.delete(created.id)).toEqual({ id: created.id, object: 'file', deleted: true });
  const gone = await failed(sdk.files.retrieve(created.id));
  expect(gone).toBeInstanceOf(APIError);
  expect((gone as APIError).status).toBe(404);
});

test('an upload over the file limit is a 413; a missing purpose or an unknown one a 400 naming it', async () => {
  const { client: sdk } = await client({ files: { maxFileBytes: 1000 } });
  const big = await failed(sdk.files.create({ file: await toFile(new Uint8Array(5000), 'big.bin'), purpose: 'assistants' }));
  expect(big.status).toBe(413);
  expect(big.code).toBe('file_too_large');
  const wrong = await failed(sdk.files.create({ file: await toFile(new Uint8Array(5), 'a.txt'), purpose: 'nonsense' as 'assistants' }));
  expect(wrong.status).toBe(400);
  expect(wrong.param).toBe('purpose');
});

test('a JSON body to /v1/files is refused with a clear content-type error', async () => {
  const local = await client();
  const response = await local.http('/v1/files', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(response.status).toBe(400);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_content_type');
});

test('with the disk full an upload is refused with 507 storage_full, and a vector store with it too; reads still work', async () => {
  let disk!: FullDiskFileStore;
  const { client: sdk } = await client({ files: { wrapFiles: (store) => (disk = new FullDiskFileStore(store)) } });
  const kept = await sdk.files.create({ file: await toFile(new TextEncoder().encode('kept'), 'kept.txt'), purpose: 'assistants' });
  disk.full = true;
  const refused = await failed(sdk.files.create({ file: await toFile(new Uint8Array(10), 'more.txt'), purpose: 'assistants' }));
  expect(refused.status).toBe(507);
  expect(refused.code).toBe('storage_full');
  expect((await failed(sdk.vectorStores.create({ name: 'x' }))).status).toBe(507);
  expect((await sdk.files.retrieve(kept.id)).filename).toBe('kept.txt');
  disk.full = false;
});
