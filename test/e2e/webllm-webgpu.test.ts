/**
 * web-llm in Chromium with SwiftShader WebGPU (`--enable-unsafe-webgpu`, this file only):
 * feature detection, the q4f32 build chosen without `shader-f16`, and loading from a
 * same-origin mirror the test generates (`test/fixtures/webllm-mirror.ts`), served next to
 * the app by `serveDistWithMirror` (a Vite preview middleware under `/test-mirror/`, which
 * records every request). No compiled model library can be had offline, so every load here
 * ends at the placeholder `.wasm` (or earlier, at a missing or corrupt file); a full load
 * is `webllm-real-gpu.test.ts`. No shader is compiled: each test takes about a second.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { findCatalogEntry, MODEL_CATALOG } from '../../src/engine/webllm/catalog';
import { writeWebLlmMirror, type WebLlmMirror } from '../fixtures/webllm-mirror';
import { serveDistWithMirror, type ServedWithMirror } from '../fixtures/webllm-mirror-server';
import { CHROMIUM_ARGS, configureRuntime, waitForRuntime } from '../support/browser';

const QWEN = 'Qwen3-0.6B-q4f16_1-MLC';
const QWEN_F32 = 'Qwen3-0.6B-q4f32_1-MLC';
const CASES = ['complete', 'missing', 'corrupt'] as const;

let dir: string;
let app: ServedWithMirror;
let browser: Browser;
let mirror: WebLlmMirror;
/** The `complete` mirror's profile, shared by the tests that use it (a runtime start costs ~2 s). */
let complete: Awaited<ReturnType<typeof openWithMirror>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'webllm-mirror-'));
  for (const name of CASES) mirror = await writeWebLlmMirror(join(dir, name), { variantId: QWEN_F32 });
  await rm(join(dir, 'missing', mirror.paths.config));
  await writeFile(join(dir, 'corrupt', mirror.paths.config), '{"model_type": "qwen3", "conv_template": {');
  [app, browser] = await Promise.all([
    serveDistWithMirror(dir),
    chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: [...CHROMIUM_ARGS, '--enable-unsafe-webgpu'] }),
  ]);
  complete = await openWithMirror('complete');
  // Counts the page's `navigator.storage.persist()` calls (the runtime worker cannot make them).
  await complete.page.evaluate(() => {
    const storage = navigator.storage;
    const persist = storage.persist.bind(storage);
    (window as { persistCalls?: number }).persistCalls = 0;
    storage.persist = () => {
      (window as { persistCalls?: number }).persistCalls! += 1;
      return persist();
    };
  });
});

afterAll(async () => {
  await Promise.all([browser?.close(), app?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A fresh profile (empty caches) with the app pointed at one mirror case; records every request. */
async function openWithMirror(name: (typeof CASES)[number]): Promise<{ context: BrowserContext; page: Page; requested: string[] }> {
  const context = await browser.newContext();
  const requested: string[] = [];
  // Requests of the page, its runtime worker and the service worker.
  context.on('request', (request) => requested.push(request.url()));
  await configureRuntime(context, app.origin, { modelBase: `/test-mirror/${name}/` });
  const page = await context.newPage();
  await page.goto(`${app.origin}/?test-models`);
  await waitForRuntime(page);
  return { context, page, requested };
}

interface LoadEvent {
  type: string;
  phase?: string;
  model?: string;
  progress?: number;
  error?: { message: string; code: string | null; type: string };
}

/** `POST /v1/local/models/{id}/load`, its SSE events read to the end. */
function loadModel(page: Page, id: string): Promise<{ status: number; events: LoadEvent[] }> {
  return page.evaluate(async (model) => {
    const response = await fetch(`/v1/local/models/${encodeURIComponent(model)}/load`, { method: 'POST' });
    const text = await response.text();
    const events = text
      .split('\n\n')
      .map((block) => block.split('\n').find((line) => line.startsWith('data: '))?.slice(6))
      .filter((data): data is string => data !== undefined && data !== '[DONE]')
      .map((data) => JSON.parse(data) as LoadEvent);
    return { status: response.status, events };
  }, id);
}

function status(page: Page) {
  return page.evaluate(async () => (await fetch('/v1/local/status')).json());
}

test('feature detection: a SwiftShader adapter without shader-f16, so the q4f32 build is chosen', async () => {
  const { page } = complete;
  const report = await status(page);
  expect(report.gpu).toMatchObject({ usable: true, reason: null, shaderF16: false, fallbackAdapter: true, adapter: { architecture: 'swiftshader' } });
  expect(report.models.find((m: { id: string }) => m.id === QWEN)).toEqual({ id: QWEN, variant: QWEN_F32, cached: false, cachedVariants: [], loaded: false });
  expect(report.loaded).toBeNull();
  expect(report.storage.quotaBytes).toBeGreaterThan(0);

  // /v1/models lists the catalog with the sizes of the build this device loads.
  const models = await page.evaluate(async () => (await fetch('/v1/models')).json());
  const entry = findCatalogEntry(MODEL_CATALOG, QWEN)!;
  expect(models.data.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining(['test-scripted', ...MODEL_CATALOG.map((e) => e.id)]));
  expect(models.data.find((m: { id: string }) => m.id === QWEN)).toMatchObject({
    engine: 'web-llm',
    label: 'Qwen3 0.6B',
    chat_format: 'qwen3',
    context_window: 4096,
    download_bytes: entry.variants.q4f32.downloadBytes,
    vram_bytes: entry.variants.q4f32.vramBytes,
    capabilities: { tools: true, reasoning: true },
    hidden: false,
  });
});

test('load from a same-origin mirror: progress, requests to the mirror, persistent storage asked, the placeholder library named', async () => {
  const { page, requested } = complete;
  const before = app.requests.length;

  const { status: code, events } = await loadModel(page, QWEN);
  expect(code).toBe(200);
  expect(events[0]).toMatchObject({ type: 'progress', model: QWEN, phase: 'download', progress: 0 });
  const last = events.at(-1)!;
  expect(last.type).toBe('error');
  const libraryUrl = `${app.mirrorUrl}complete/${mirror.paths.library}`;
  expect(last.error).toMatchObject({ type: 'server_error', code: 'model_download_failed' });
  expect(last.error!.message).toContain(`A file of ${QWEN} is corrupt or not a model file (${libraryUrl})`);

  // web-llm fetched the config and the library of the q4f32 build from the mirror...
  const seen = app.requests.slice(before).map((r) => `${r.method} ${r.path} ${r.status}`);
  expect(seen).toEqual(expect.arrayContaining([`GET complete/${mirror.paths.config} 200`, `GET complete/${mirror.paths.library} 200`]));
  // ...and nothing left the app's origin (no Hugging Face, no GitHub).
  // (blob: URLs — the Python sandbox frame starts its code from one — never leave the browser.)
  expect(requested.filter((url) => !url.startsWith(app.origin) && !url.startsWith('blob:'))).toEqual([]);
  // Before downloading, the runtime asked its page for persistent storage (headless: refused).
  expect(await page.evaluate(() => (window as { persistCalls?: number }).persistCalls)).toBe(1);
  expect(await status(page)).toMatchObject({ loaded: null, loading: null, storage: { persisted: false } });
});

test('a response for a catalog model that is not loaded loads it meanwhile, then fails with the load error', async () => {
  const { page } = complete;
  const result = await page.evaluate(async (model) => {
    const stream = await window.sdk!.responses.create({ model, input: 'Hi', stream: true });
    const types: string[] = [];
    let error: { code: string; message: string } | null = null;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.failed') error = event.response.error;
    }
    return { types, error };
  }, QWEN);
  expect(result.types).toEqual(['response.created', 'response.in_progress', 'response.failed']);
  expect(result.error!.message).toContain(`corrupt or not a model file (${app.mirrorUrl}complete/${mirror.paths.library})`);
});

test('a missing file fails with an error naming it', async () => {
  const { context, page } = await openWithMirror('missing');
  const { events } = await loadModel(page, QWEN);
  const error = events.at(-1)!.error!;
  expect(error.code).toBe('model_download_failed');
  expect(error.message).toContain(`Downloading ${QWEN} failed: ${app.mirrorUrl}missing/${mirror.paths.config} answered HTTP 404`);
  await context.close();
});

test('a corrupt file fails with an error naming it', async () => {
  const { context, page } = await openWithMirror('corrupt');
  const { events } = await loadModel(page, QWEN);
  const error = events.at(-1)!.error!;
  expect(error.code).toBe('model_download_failed');
  expect(error.message).toContain(`A file of ${QWEN} is corrupt or not a model file (${app.mirrorUrl}corrupt/${mirror.paths.config})`);
  await context.close();
});

test('a model id outside the catalog (a build id, here) is 404 model_not_found', async () => {
  const { page } = complete;
  const result = await page.evaluate(async (id) => {
    const load = await fetch(`/v1/local/models/${id}/load`, { method: 'POST' });
    const create = await fetch('/v1/responses', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: id, input: 'Hi' }) });
    return { load: [load.status, (await load.json()).error.code], create: [create.status, (await create.json()).error.code] };
  }, QWEN_F32);
  expect(result).toEqual({ load: [404, 'model_not_found'], create: [404, 'model_not_found'] });
});

test('deleting a model offline removes what its build left in the cache, fetching nothing for the other build', async () => {
  const { context, page } = await openWithMirror('complete');
  // The load stops at the placeholder library, after web-llm stored the q4f32 build's config and library.
  await loadModel(page, QWEN);
  const cached = () =>
    page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) if (name.startsWith('webllm/')) for (const r of await (await caches.open(name)).keys()) urls.push(r.url);
      return urls;
    });
  expect((await cached()).filter((url) => url.includes(QWEN_F32)).length).toBeGreaterThan(0);

  const before = app.requests.length;
  await context.setOffline(true);
  const deleted = await page.evaluate(async (id) => {
    const response = await fetch(`/v1/local/models/${id}`, { method: 'DELETE' });
    return { status: response.status, body: await response.json() };
  }, QWEN);
  await context.setOffline(false);
  // web-llm's own deletion fetched the never-downloaded q4f16 build's tensor-cache.json and failed here.
  expect(deleted).toEqual({ status: 200, body: { id: QWEN, object: 'model.cache.deleted', deleted: true } });
  expect(await cached()).toEqual([]);
  expect(app.requests.slice(before)).toEqual([]);
  await context.close();
});
