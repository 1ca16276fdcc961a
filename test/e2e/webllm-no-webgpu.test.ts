/**
 * web-llm in a Chromium without a WebGPU adapter (the default headless flags: no
 * `--enable-unsafe-webgpu`, so `requestAdapter()` answers null): the runtime still starts and
 * lists the catalog, and every way of using a real model fails with the reason and what to
 * do, before anything is downloaded.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openApp, startE2E } from '../support/browser';

const QWEN = 'Qwen3-0.6B-q4f16_1-MLC';

let e2e: Awaited<ReturnType<typeof startE2E>>;
let page: Page;
const requested: string[] = [];

beforeAll(async () => {
  e2e = await startE2E();
  const context = await e2e.browser.newContext();
  context.on('request', (request) => requested.push(request.url()));
  page = await openApp(context, e2e.app.origin);
});
afterAll(() => e2e?.close());

test('status says why no model can run: no adapter, with what to do', async () => {
  const status = await page.evaluate(async () => (await fetch('/v1/local/status')).json());
  expect(status.gpu).toMatchObject({ usable: false, shaderF16: false, cause: 'no_adapter' });
  expect(status.gpu.reason).toContain('no GPU adapter is available');
  // Said to a visitor: what they can change, never a browser flag (those are in docs/models.md).
  expect(status.gpu.reason).toContain('hardware acceleration');
  expect(status.gpu.reason).not.toMatch(/--enable|chrome:\/\/|headless/);
  // The catalog is still listed (the UI shows it, disabled, with the reason).
  const models = await page.evaluate(async () => (await fetch('/v1/models')).json());
  expect(models.data.map((m: { id: string }) => m.id)).toContain(QWEN);
});

test('a response for a catalog model fails with the actionable reason', async () => {
  const result = await page.evaluate(async (model) => {
    const stream = await window.sdk!.responses.create({ model, input: 'Hi', stream: true });
    const types: string[] = [];
    let error: { code: string; message: string } | null = null;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.failed') error = event.response.error;
    }
    const stored = await window.sdk!.responses.create({ model, input: 'Hi' });
    return { types, error, stored: { status: stored.status, error: stored.error } };
  }, QWEN);
  expect(result.types).toEqual(['response.created', 'response.in_progress', 'response.failed']);
  expect(result.error!.message).toMatch(/^This model needs the GPU \(WebGPU\), which this browser can't use: WebGPU is present but no GPU adapter is available\. The GPU may be blocked/);
  expect(result.stored.status).toBe('failed');
  expect(result.stored.error!.message).toContain("This model needs the GPU (WebGPU)");
});

test('a model download is refused with webgpu_unavailable, and nothing was fetched', async () => {
  const events = await page.evaluate(async (model) => {
    const text = await (await fetch(`/v1/local/models/${model}/load`, { method: 'POST' })).text();
    return text
      .split('\n\n')
      .map((block) => block.split('\n').find((line) => line.startsWith('data: '))?.slice(6))
      .filter((data): data is string => data !== undefined && data !== '[DONE]')
      .map((data) => JSON.parse(data) as { type: string; error?: { code: string; message: string } });
  }, QWEN);
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ type: 'error', error: { code: 'webgpu_unavailable', type: 'server_error' } });
  expect(events[0]!.error!.message).toContain('the CPU models work without a GPU');
  expect(events[0]!.error!.message).not.toContain('--enable');
  // blob: URLs (the Python sandbox frame starts its code from one) never leave the browser.
  expect(requested.filter((url) => !url.startsWith(e2e.app.origin) && !url.startsWith('blob:'))).toEqual([]);
});
