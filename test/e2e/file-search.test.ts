/**
 * Files, vector stores and file search in Chromium, through the real `openai` SDK in the page:
 * uploads (a `File`) through the service worker into IndexedDB — one of 120 MB, which no thread
 * holds whole — real pdf.js (in the extraction worker) on a PDF this test writes, mammoth on a
 * DOCX it zips, hostile files each failing alone, keyword and hybrid (`test-embedding`) search,
 * and `test-scripted` calling `file_search` and citing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { configureRuntime, openApp, serveModelMirror, startE2E } from '../support/browser';
import { makeDocx, makeDocxBomb, makeJavaScriptPdf, makePdf } from '../fixtures/make-documents';
import { makeTinyGguf } from '../fixtures/make-tiny-gguf';

let e2e: Awaited<ReturnType<typeof startE2E>>;
let page: Page;
beforeAll(async () => {
  e2e = await startE2E();
  const context = await e2e.browser.newContext();
  await configureRuntime(context, e2e.app.origin, { options: { fileSearch: { embeddingModel: 'test-embedding' } } });
  page = await openApp(context, e2e.app.origin);
});
afterAll(() => e2e?.close());

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

test('a batch of real and hostile documents: PDF (pdf.js), DOCX (mammoth) and text complete, each hostile file fails alone; hybrid search finds them', async () => {
  const files = [
    { name: 'report.pdf', type: 'application/pdf', data: b64(makePdf(['Quarterly revenue grew by twelve percent.', 'The aquarium opened a wing for octopuses.'])) },
    { name: 'birds.docx', type: '', data: b64(makeDocx(['Pelicans migrate along the coast in spring.'])) },
    { name: 'notes.md', type: 'text/markdown', data: b64(new TextEncoder().encode('# Tides\n\nThe lighthouse keeper logs the tide at dawn.')) },
    { name: 'script.pdf', type: 'application/pdf', data: b64(makeJavaScriptPdf('Volcanoes erupt rarely.', 'window.__pwned = 1; fetch("/v1/files")')) },
    { name: 'bomb.docx', type: '', data: b64(makeDocxBomb(80)) },
    { name: 'broken.txt', type: 'text/plain', data: b64(new Uint8Array([0x48, 0x69, 0xff, 0xfe, 0x80])) },
    { name: 'empty.txt', type: 'text/plain', data: '' },
  ];
  const result = await page.evaluate(async (files) => {
    const sdk = window.sdk!;
    const decode = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
    const store = await sdk.vectorStores.create({ name: 'e2e docs' });
    const batch = await sdk.vectorStores.fileBatches.uploadAndPoll(store.id, { files: files.map((f) => new File([decode(f.data)], f.name, { type: f.type })) });
    const listed = await sdk.vectorStores.fileBatches.listFiles(batch.id, { vector_store_id: store.id });
    const names = new Map((await sdk.files.list()).data.map((f) => [f.id, f.filename]));
    const rows = Object.fromEntries(listed.data.map((r) => [names.get(r.id), { status: r.status, error: r.last_error }]));
    const octopus = await sdk.vectorStores.search(store.id, { query: 'octopuses' });
    const pelican = await sdk.vectorStores.search(store.id, { query: 'pelicans migrate' });
    const embedded = await sdk.embeddings.create({ model: 'test-embedding', input: ['tide at dawn', 'pelicans'] });
    return {
      counts: batch.file_counts,
      rows,
      octopus: octopus.data.map((r) => [r.filename, r.content[0]!.text, r.score]),
      pelican: pelican.data.map((r) => r.filename),
      dims: embedded.data.map((d) => d.embedding.length),
      pwned: (window as { __pwned?: number }).__pwned ?? null,
    };
  }, files);
  expect(result.counts).toEqual({ in_progress: 0, completed: 4, failed: 3, cancelled: 0, total: 7 });
  expect(result.rows['report.pdf']!.status).toBe('completed');
  expect(result.rows['birds.docx']!.status).toBe('completed');
  expect(result.rows['notes.md']!.status).toBe('completed');
  expect(result.rows['script.pdf']!.status).toBe('completed');
  expect(result.rows['bomb.docx']!.error).toMatchObject({ code: 'invalid_file', message: expect.stringMatching(/zip bomb/) });
  expect(result.rows['broken.txt']!.error).toMatchObject({ code: 'invalid_file', message: expect.stringMatching(/UTF-8/) });
  expect(result.rows['empty.txt']!.error).toMatchObject({ code: 'invalid_file', message: expect.stringMatching(/empty/) });
  expect(result.octopus[0]).toEqual(['report.pdf', expect.stringContaining('The aquarium opened a wing for octopuses.'), expect.any(Number)]);
  // Hybrid: first by keyword and by embedding, the fused score is 1.
  expect(result.octopus[0]![2]).toBe(1);
  expect(result.pelican[0]).toBe('birds.docx');
  expect(result.dims).toEqual([384, 384]);
  expect(result.pwned).toBeNull();
});

test('test-scripted calls file_search and cites the PDF, streamed through the service worker', async () => {
  const result = await page.evaluate(async (pdf) => {
    const sdk = window.sdk!;
    const store = await sdk.vectorStores.create({ name: 'cite' });
    const bytes = Uint8Array.from(atob(pdf), (c) => c.charCodeAt(0));
    const file = await sdk.vectorStores.files.uploadAndPoll(store.id, new File([bytes], 'hearts.pdf', { type: 'application/pdf' }));
    const input = JSON.stringify({ script: ['<tool_call>{"name":"file_search","arguments":{"queries":["octopus hearts"]}}</tool_call>', 'They have three hearts [1].'] });
    const stream = await sdk.responses.create({ model: 'test-scripted', input, tools: [{ type: 'file_search', vector_store_ids: [store.id] }], stream: true });
    const types: string[] = [];
    let text = '';
    let annotation: unknown = null;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.output_text.annotation.added') annotation = event.annotation;
    }
    return { fileId: file.id, status: file.status, types, text, annotation };
  }, b64(makePdf(['Octopuses have three hearts and blue blood.'])));
  expect(result.status).toBe('completed');
  expect(result.types).toContain('response.file_search_call.searching');
  expect(result.text).toBe('They have three hearts.');
  expect(result.annotation).toEqual({ type: 'file_citation', file_id: result.fileId, filename: 'hearts.pdf', index: 22 });
});

test('an upload of 120 MB goes through the service worker into IndexedDB and reads back; over the file limit is a 413', { timeout: 120_000 }, async () => {
  const result = await page.evaluate(async () => {
    const sdk = window.sdk!;
    // 120 MB made of one 1 MB part repeated: the page never holds 120 MB either.
    const part = new Uint8Array(1_000_000).map((_, i) => (i * 31) % 256);
    const big = new File(Array.from({ length: 120 }, () => part), 'big.bin');
    const created = await sdk.files.create({ file: big, purpose: 'user_data' });
    const content = await (await sdk.files.content(created.id)).blob();
    const tail = new Uint8Array(await content.slice(content.size - 1000).arrayBuffer());
    const huge = new File(Array.from({ length: 520 }, () => new Blob([part])), 'huge.bin');
    const refused = await sdk.files.create({ file: huge, purpose: 'user_data' }).then(
      () => null,
      (e: { status?: number; code?: string }) => ({ status: e.status, code: e.code }),
    );
    await sdk.files.delete(created.id);
    return { bytes: created.bytes, read: content.size, tailOk: tail.every((b, i) => b === ((999_000 + i) * 31) % 256), refused };
  });
  expect(result).toEqual({ bytes: 120_000_000, read: 120_000_000, tailOk: true, refused: { status: 413, code: 'file_too_large' } });
});

test('input_file: a base64 PDF data URL (as the Open Responses compliance suite sends) is read by pdf.js in the extraction worker and shown to the model', async () => {
  const text = await page.evaluate(async (pdf) => {
    const response = await window.sdk!.responses.create({
      model: 'test-scripted',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Summarize' }, { type: 'input_file', filename: 'moon.pdf', file_data: `data:application/pdf;base64,${pdf}` }] }],
    });
    return response.output_text;
  }, b64(makePdf(['The Moon has no atmosphere.'])));
  expect(text).toBe('You said: Summarize\n[File: moon.pdf]\nThe Moon has no atmosphere.\n[End of file: moon.pdf]');
});

test('the CPU engine embeds with a GGUF this test generates: real dimensions, pooling and determinism, and a store embedded with it searches', { timeout: 90_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embed-mirror-'));
  fs.writeFileSync(path.join(dir, 'test-tiny-llama.gguf'), makeTinyGguf());
  const mirror = await serveModelMirror(dir);
  const context = await e2e.browser.newContext();
  try {
    await configureRuntime(context, e2e.app.origin, { modelBase: mirror.base, options: { fileSearch: { embeddingModel: 'test-tiny-embed' } } });
    const cpuPage = await openApp(context, e2e.app.origin);
    const result = await cpuPage.evaluate(async () => {
      const sdk = window.sdk!;
      const inputs = ['hello world', 'hello world', 'a different text'];
      const { data } = await sdk.embeddings.create({ model: 'test-tiny-embed', input: inputs, encoding_format: 'float' });
      const again = await sdk.embeddings.create({ model: 'test-tiny-embed', input: inputs, encoding_format: 'float' });
      const [a, b, c] = data.map((d) => d.embedding);
      const store = await sdk.vectorStores.create({ name: 'cpu embedded' });
      const file = await sdk.vectorStores.files.uploadAndPoll(store.id, new File(['Harbours keep lanterns lit all night.'], 'harbour.txt'));
      const found = await sdk.vectorStores.search(store.id, { query: 'lanterns' });
      return {
        dims: [a!.length, c!.length],
        // The same text gives the same vector, up to float32 rounding (llama.cpp's threads sum in
        // varying order: measured differences ~3e-8), again or twice in one batch.
        repeatable: data.every((d, k) => d.embedding.every((x, i) => Math.abs(x - again.data[k]!.embedding[i]!) < 1e-6)),
        same: a!.every((x, i) => Math.abs(x - b![i]!) < 1e-6),
        differs: a!.some((x, i) => x !== c![i]),
        norm: Math.hypot(...a!),
        status: file.status,
        error: file.last_error,
        found: found.data.map((r) => [r.filename, r.score]),
      };
    });
    expect(result.dims).toEqual([64, 64]);
    expect(result.repeatable).toBe(true);
    expect(result.same).toBe(true);
    expect(result.differs).toBe(true);
    expect(result.norm).toBeCloseTo(1, 4);
    expect(result.status).toBe('completed');
    expect(result.found[0]![0]).toBe('harbour.txt');
    // One chunk: first by keywords and by embedding.
    expect(result.found[0]![1]).toBe(1);
  } finally {
    await context.close();
    await mirror.close();
  }
});
