/**
 * The Vector Stores API through the real `openai` SDK: stores, files and batches with the SDK's
 * own upload-and-poll helpers, real pdf.js and mammoth on documents the test writes, hostile
 * files failing alone, keyword search with filters and thresholds.
 */
import { expect, test } from 'vitest';
import { toFile } from 'openai';
import { failed, localClient, clientsWithFiles } from '../support/local-client';
import { makeDocx, makeDocxBomb, makeJavaScriptPdf, makePdf } from '../fixtures/make-documents';

const client = clientsWithFiles();

const text = (s: string) => new TextEncoder().encode(s);

test('a batch of real documents: text, PDF and DOCX complete; hostile files each fail alone with a clear error', async () => {
  const { client: sdk } = await client();
  const store = await sdk.vectorStores.create({ name: 'docs', metadata: { owner: 'tests' } });
  expect(store).toMatchObject({ object: 'vector_store', name: 'docs', status: 'completed', file_counts: { total: 0 }, metadata: { owner: 'tests' } });
  const files = [
    await toFile(text('The lighthouse keeper logs the tide at dawn.\n\nStorms come from the west.'), 'notes.md'),
    await toFile(makePdf(['Quarterly revenue grew by twelve percent.', 'The aquarium opened a new wing for octopuses.']), 'report.pdf', { type: 'application/pdf' }),
    await toFile(makeDocx(['Pelicans migrate along the coast in spring.', 'Bring binoculars.']), 'birds.docx'),
    await toFile(makeJavaScriptPdf('Harmless visible text about volcanoes.', 'app.alert(document.cookie)'), 'script.pdf'),
    await toFile(makeDocxBomb(80), 'bomb.docx'),
    await toFile(new Uint8Array([0x48, 0x69, 0xff, 0xfe, 0x80]), 'broken.txt'),
    await toFile(new Uint8Array(0), 'empty.txt'),
    await toFile(new Uint8Array([1, 2, 3]), 'image.png'),
  ];
  const batch = await sdk.vectorStores.fileBatches.uploadAndPoll(store.id, { files }, { pollIntervalMs: 10 });
  expect(batch.status).toBe('completed');
  expect(batch.file_counts).toEqual({ in_progress: 0, completed: 4, failed: 4, cancelled: 0, total: 8 });

  const listed = await sdk.vectorStores.fileBatches.listFiles(batch.id, { vector_store_id: store.id, limit: 20 });
  const names = new Map((await sdk.files.list()).data.map((f) => [f.id, f.filename]));
  const byName = Object.fromEntries(listed.data.map((f) => [names.get(f.id), f]));
  expect(byName['notes.md']!.status).toBe('completed');
  expect(byName['report.pdf']!.status).toBe('completed');
  expect(byName['birds.docx']!.status).toBe('completed');
  // A PDF's JavaScript is never run: its text is read like any PDF's.
  expect(byName['script.pdf']!.status).toBe('completed');
  expect(byName['bomb.docx']!.last_error).toMatchObject({ code: 'invalid_file', message: expect.stringMatching(/zip bomb/) });
  expect(byName['broken.txt']!.last_error).toMatchObject({ code: 'invalid_file', message: expect.stringMatching(/not valid UTF-8/) });
  expect(byName['empty.txt']!.last_error).toMatchObject({ code: 'invalid_file', message: expect.stringMatching(/empty/) });
  expect(byName['image.png']!.last_error).toMatchObject({ code: 'unsupported_file' });
  expect(byName['notes.md']!.chunking_strategy).toEqual({ type: 'static', static: { max_chunk_size_tokens: 800, chunk_overlap_tokens: 400 } });

  const found = await sdk.vectorStores.search(store.id, { query: 'octopuses aquarium' });
  expect(found.data[0]).toMatchObject({ filename: 'report.pdf', attributes: null });
  expect(found.data[0]!.content[0]!.text).toMatch(/octopuses/);
  expect(found.data[0]!.score).toBeGreaterThan(0);
  expect(found.data[0]!.score).toBeLessThanOrEqual(1);
  const pelicans = await sdk.vectorStores.search(store.id, { query: 'pelicans' });
  expect(pelicans.data.map((r) => r.filename)).toEqual(['birds.docx']);
  const volcano = await sdk.vectorStores.search(store.id, { query: 'volcanoes' });
  expect(volcano.data.map((r) => r.filename)).toEqual(['script.pdf']);

  const content = await sdk.vectorStores.files.content(byName['birds.docx']!.id, { vector_store_id: store.id });
  expect(content.data[0]!.text).toBe('Pelicans migrate along the coast in spring.\n\nBring binoculars.');

  const after = await sdk.vectorStores.retrieve(store.id);
  expect(after.file_counts).toEqual({ in_progress: 0, completed: 4, failed: 4, cancelled: 0, total: 8 });
  expect(after.usage_bytes).toBeGreaterThan(100);
});

test('upload and poll one file, attributes and filters, threshold, max results, update and detach', async () => {
  const local = await client();
  const sdk = local.client;
  const store = await sdk.vectorStores.create({ name: 'filtered' });
  const a = await sdk.vectorStores.files.uploadAndPoll(store.id, await toFile(text('Red apples grow in the orchard.'), 'a.txt'), { pollIntervalMs: 5 });
  expect(a.status).toBe('completed');
  const bFile = await sdk.files.create({ file: await toFile(text('Green apples are sour.'), 'b.txt'), purpose: 'assistants' });
  const b = await sdk.vectorStores.files.createAndPoll(store.id, { file_id: bFile.id, attributes: { year: 2024, color: 'green', public: true } }, { pollIntervalMs: 5 });
  await sdk.vectorStores.files.update(a.id, { vector_store_id: store.id, attributes: { year: 2020, color: 'red' } });

  const all = await sdk.vectorStores.search(store.id, { query: 'apples' });
  expect(all.data).toHaveLength(2);
  const page = (await (await local.http(`/v1/vector_stores/${store.id}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":["apples","pears"]}' })).json()) as Record<string, unknown>;
  expect(page).toMatchObject({ object: 'vector_store.search_results.page', search_query: ['apples', 'pears'], has_more: false, next_page: null });
  const recent = await sdk.vectorStores.search(store.id, { query: 'apples', filters: { key: 'year', type: 'gte', value: 2022 } });
  expect(recent.data.map((r) => r.file_id)).toEqual([b.id]);
  expect(recent.data[0]!.attributes).toEqual({ year: 2024, color: 'green', public: true });
  const either = await sdk.vectorStores.search(store.id, {
    query: 'apples',
    filters: { type: 'or', filters: [{ key: 'color', type: 'eq', value: 'red' }, { type: 'and', filters: [{ key: 'public', type: 'eq', value: true }, { key: 'year', type: 'in', value: [2024] }] }] },
  });
  expect(either.data).toHaveLength(2);
  expect((await sdk.vectorStores.search(store.id, { query: 'apples', filters: { key: 'color', type: 'nin', value: ['red', 'green'] } })).data).toHaveLength(0);
  expect((await sdk.vectorStores.search(store.id, { query: 'apples', max_num_results: 1 })).data).toHaveLength(1);
  expect((await sdk.vectorStores.search(store.id, { query: 'apples', ranking_options: { score_threshold: 0.99 } })).data).toHaveLength(0);
  expect((await sdk.vectorStores.search(store.id, { query: 'zebra' })).data).toHaveLength(0);

  const rewrite = await failed(sdk.vectorStores.search(store.id, { query: 'apples', rewrite_query: true }));
  expect(rewrite.status).toBe(400);
  expect(rewrite.param).toBe('rewrite_query');

  expect(await sdk.vectorStores.files.delete(a.id, { vector_store_id: store.id })).toMatchObject({ deleted: true, object: 'vector_store.file.deleted' });
  expect((await sdk.vectorStores.search(store.id, { query: 'apples' })).data.map((r) => r.file_id)).toEqual([b.id]);
  // Detached, not deleted: the file is still there.
  expect((await sdk.files.retrieve(a.id)).id).toBe(a.id);
  // Deleting the file removes it from every store.
  await sdk.files.delete(b.id);
  expect((await sdk.vectorStores.search(store.id, { query: 'apples' })).data).toHaveLength(0);
  expect((await sdk.vectorStores.files.list(store.id)).data).toHaveLength(0);
});

test('create with file_ids and a static chunking strategy; bounds of chunking; list, update, delete', async () => {
  const { client: sdk } = await client();
  const long = Array.from({ length: 400 }, (_, i) => `Sentence number ${i} talks about topic ${i % 7}.`).join(' ');
  const file = await sdk.files.create({ file: await toFile(text(long), 'long.txt'), purpose: 'assistants' });
  const store = await sdk.vectorStores.create({ name: 'chunked', file_ids: [file.id], chunking_strategy: { type: 'static', static: { max_chunk_size_tokens: 100, chunk_overlap_tokens: 50 } } });
  expect(['in_progress', 'completed']).toContain(store.status);
  const row = await sdk.vectorStores.files.poll(store.id, file.id, { pollIntervalMs: 5 });
  expect(row.status).toBe('completed');
  expect(row.chunking_strategy).toEqual({ type: 'static', static: { max_chunk_size_tokens: 100, chunk_overlap_tokens: 50 } });
  const hits = await sdk.vectorStores.search(store.id, { query: 'Sentence number 123', max_num_results: 50 });
  expect(hits.data.length).toBeGreaterThan(3);
  expect(hits.data[0]!.content[0]!.text).toMatch(/123/);

  const bad = await failed(sdk.vectorStores.create({ file_ids: [file.id], chunking_strategy: { type: 'static', static: { max_chunk_size_tokens: 100, chunk_overlap_tokens: 60 } } }));
  expect(bad.status).toBe(400);
  expect(bad.param).toBe('chunking_strategy.static.chunk_overlap_tokens');
  const missing = await failed(sdk.vectorStores.create({ file_ids: ['file_nope'] }));
  expect(missing.status).toBe(400);
  expect(missing.param).toBe('file_ids[0]');

  const renamed = await sdk.vectorStores.update(store.id, { name: 'renamed', expires_after: { anchor: 'last_active_at', days: 7 } });
  expect(renamed).toMatchObject({ name: 'renamed', expires_after: { anchor: 'last_active_at', days: 7 } });
  expect(renamed.expires_at).toBe(renamed.last_active_at! + 7 * 86400);
  expect((await sdk.vectorStores.list()).data.map((s) => s.id)).toEqual([store.id]);
  expect(await sdk.vectorStores.delete(store.id)).toEqual({ id: store.id, object: 'vector_store.deleted', deleted: true });
  expect((await failed(sdk.vectorStores.retrieve(store.id))).status).toBe(404);
});

test('in-progress answers carry openai-poll-after-ms; a cancelled batch ends cancelled', async () => {
  const local = await client();
  const { client: sdk } = local;
  const store = await sdk.vectorStores.create({ name: 'slow' });
  const ids = [];
  for (let i = 0; i < 6; i++) ids.push((await sdk.files.create({ file: await toFile(text(`file ${i} `.repeat(20_000)), `f${i}.txt`), purpose: 'assistants' })).id);
  const raw = await local.http(`/v1/vector_stores/${store.id}/file_batches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ file_ids: ids }) });
  expect(raw.headers.get('openai-poll-after-ms')).toBe('5');
  const batch = (await raw.json()) as { id: string; status: string };
  expect(batch.status).toBe('in_progress');
  const cancelled = await sdk.vectorStores.fileBatches.cancel(batch.id, { vector_store_id: store.id });
  expect(cancelled.status).toBe('cancelled');
  expect(cancelled.file_counts.cancelled + cancelled.file_counts.completed).toBe(6);
  expect(cancelled.file_counts.cancelled).toBeGreaterThan(0);
  const done = await sdk.vectorStores.fileBatches.retrieve(batch.id, { vector_store_id: store.id });
  expect(done.status).toBe('cancelled');
});

test('ingestion cut off by a stopped runtime is resumed by the next one, never left in progress', async () => {
  const first = await localClient({ files: true });
  const sdk = first.client;
  const store = await sdk.vectorStores.create({ name: 'resume' });
  const files = [];
  for (let i = 0; i < 4; i++) files.push((await sdk.files.create({ file: await toFile(text(`document ${i} about kites. `.repeat(5000)), `k${i}.txt`), purpose: 'assistants' })).id);
  await sdk.vectorStores.fileBatches.create(store.id, { file_ids: files });
  // The runtime stops at once (as a closed tab does): rows still in progress stay so in storage.
  first.server.close();
  await first.checked();
  const second = await client({ dbName: first.dbName });
  for (const id of files) expect((await second.client.vectorStores.files.poll(store.id, id, { pollIntervalMs: 5 })).status).toBe('completed');
  const counts = (await second.client.vectorStores.retrieve(store.id)).file_counts;
  expect(counts).toMatchObject({ completed: 4, in_progress: 0 });
  first.store.close();
  first.keys.close();
  first.fileStore?.close();
});

test('ingestion waits behind chat generation: a file stays in progress while a response runs, and is read once it ends', async () => {
  const { client: sdk } = await client();
  const store = await sdk.vectorStores.create({ name: 'behind' });
  const running = await sdk.responses.create({ model: 'test-scripted', input: JSON.stringify({ script: 'x'.repeat(60), delay_ms: 10, chunk: 1 }), background: true });
  const file = await sdk.files.create({ file: await toFile(text('Waiting politely.'), 'wait.txt'), purpose: 'assistants' });
  await sdk.vectorStores.files.create(store.id, { file_id: file.id });
  await new Promise((r) => setTimeout(r, 150));
  const during = await sdk.responses.retrieve(running.id);
  expect(during.status).toBe('in_progress');
  expect((await sdk.vectorStores.files.retrieve(file.id, { vector_store_id: store.id })).status).toBe('in_progress');
  const row = await sdk.vectorStores.files.poll(store.id, file.id, { pollIntervalMs: 10 });
  expect(row.status).toBe('completed');
  expect((await sdk.responses.retrieve(running.id)).status).toBe('completed');
});
