/**
 * A newcomer's first answer through the model picker (issue 28), in Chromium without WebGPU:
 * at 10 Mbit/s / 40 ms, opening "Choose a model", listing the models with their "downloaded"
 * state and using the test model fetch no engine or tool code (web-llm, llama.cpp's script,
 * the MCP client, web search, Python) and stay under 1 MB; the deferred files are asked for
 * only after that answer. And the "downloaded" state is read from the engines' own storage
 * without their code: a GPU build in web-llm's Cache Storage and a GGUF in wllama's OPFS
 * folder show as downloaded while neither engine's script is fetched.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { MODEL_CATALOG, buildAppConfig } from '../../src/engine/webllm/catalog';
import { cleanModelUrl } from '../../src/engine/webllm/cache-lookup';
import { GGUF_TEST_CATALOG, ggufUrl } from '../../src/engine/wllama/gguf-catalog';
import { configureRuntime, startE2E, waitForRuntime } from '../support/browser';
import { throttleNetwork, type ThrottledNetwork } from '../support/throttled-network';

let e2e: Awaited<ReturnType<typeof startE2E>>;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

/** Deferred files a first answer with the test model must not wait for; the CPU engine's adapter (its catalog lists the CPU models) may load. */
const notNeeded = (url: string) => {
  const path = new URL(url).pathname;
  return /\/pyodide\/|\.wasm$/.test(path) || (path.startsWith('/assets/deferred/') && !/\/wllama-runtime-[^/]+\.js$/.test(path));
};

async function pickTestModelAndAsk(page: Page, text: string): Promise<void> {
  await page.locator('button.model-button', { hasText: 'Choose a model' }).click();
  const dialog = page.getByRole('dialog', { name: 'Models' });
  await dialog.locator('li.model[data-model-id="test-scripted"]').getByRole('button', { name: 'Use' }).click();
  await page.keyboard.press('Escape');
  const input = page.getByLabel('Message', { exact: true });
  await input.fill(text);
  await page.locator('button.send-button:not([disabled])').waitFor();
  await input.press('Enter');
  await page.locator('li.turn[data-turn-status="completed"] .answer', { hasText: `You said: ${text}` }).waitFor({ timeout: 30_000 });
}

const deferredAsked = (net: ThrottledNetwork) => net.requests.filter((r) => notNeeded(r.url)).map((r) => new URL(r.url).pathname);

test('at 10 Mbit/s the picker lists the models and the test model answers with no engine or tool code and under 1 MB; the offline files follow the answer', async () => {
  const context = await e2e.browser.newContext();
  try {
    const page = await context.newPage();
    const net = await throttleNetwork(context, page, { bitsPerSecond: 10_000_000, latencyMs: 40 });
    await page.goto(`${e2e.app.origin}/?test-models`);
    await waitForRuntime(page);
    await pickTestModelAndAsk(page, 'hi');
    expect(deferredAsked(net)).toEqual([]);
    expect(net.bytes()).toBeLessThan(1_000_000);
    // The list showed every model with its state (read without web-llm or wllama).
    const states = await page.evaluate(async () => ((await (await fetch('/v1/local/status')).json()) as { models: { cached: boolean }[] }).models.map((m) => m.cached));
    expect(states.length).toBeGreaterThan(5);
    expect(states.every((cached) => cached === false)).toBe(true);
    // Once answered, the service worker fetches the deferred files (Python first).
    await expect.poll(() => deferredAsked(net).some((path) => path.startsWith('/pyodide/')), { timeout: 30_000 }).toBe(true);
    expect(await page.evaluate(() => window.localRuntime!.offlineFiles.current()?.state)).toBe('caching');
  } finally {
    await context.close();
  }
});

test('a GPU build in web-llm’s Cache Storage and a GGUF in wllama’s OPFS folder show as downloaded, read without either engine’s script', async () => {
  const context = await e2e.browser.newContext();
  // A mirror nothing is fetched from: it fixes the URLs both engines key their files by.
  const modelBase = 'http://127.0.0.1:9/models';
  await configureRuntime(context, e2e.app.origin, { modelBase });
  try {
    const page = await context.newPage();
    const net = await throttleNetwork(context, page, { bitsPerSecond: 1_000_000_000, latencyMs: 0 });
    await page.goto(`${e2e.app.origin}/?test-models`);
    await waitForRuntime(page);
    // Without WebGPU the runtime lists the q4f16 build of each GPU model.
    const gpu = MODEL_CATALOG[0]!;
    const modelUrl = cleanModelUrl(buildAppConfig(MODEL_CATALOG, { modelBase }).model_list.find((r) => r.model_id === gpu.variants.q4f16.modelId)!.model);
    const tiny = GGUF_TEST_CATALOG[0]!;
    const gguf = ggufUrl(tiny, modelBase)!;
    await page.evaluate(
      async ({ modelUrl, gguf }) => {
        // As web-llm leaves a finished download: tensor-cache.json and every shard it names.
        const cache = await caches.open('webllm/model');
        const records = [{ dataPath: 'params_shard_0.bin' }, { dataPath: 'params_shard_1.bin' }];
        await cache.put(new URL('tensor-cache.json', modelUrl).href, Response.json({ metadata: {}, records }));
        for (const { dataPath } of records) await cache.put(new URL(dataPath, modelUrl).href, new Response(new Uint8Array(8)));
        // As wllama leaves one: the file, and its metadata beside it.
        const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('cache', { create: true });
        const write = async (name: string, body: BlobPart) => {
          const writable = await (await dir.getFileHandle(name, { create: true })).createWritable();
          await writable.write(new Blob([body]));
          await writable.close();
        };
        await write('0123_tiny.gguf', new Uint8Array(16));
        await write('__metadata__0123_tiny.gguf', JSON.stringify({ originalURL: gguf, originalSize: 16, etag: '' }));
      },
      { modelUrl, gguf },
    );
    await page.locator('button.model-button', { hasText: 'Choose a model' }).click();
    const dialog = page.getByRole('dialog', { name: 'Models' });
    const tag = (id: string) => dialog.locator(`li.model[data-model-id="${id}"] .model-title .tag`, { hasText: /^(Downloaded|Not downloaded)$/ });
    await expect.poll(() => tag(gpu.id).textContent(), { timeout: 15_000 }).toBe('Downloaded');
    expect(await tag(tiny.id).textContent()).toBe('Downloaded');
    expect(await tag(MODEL_CATALOG[1]!.id).textContent()).toBe('Not downloaded');
    expect(deferredAsked(net)).toEqual([]);
  } finally {
    await context.close();
  }
});
