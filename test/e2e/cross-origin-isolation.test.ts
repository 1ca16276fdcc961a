/**
 * Cross-origin isolation of the production build (COOP `same-origin` + COEP, see
 * src/pwa/isolation-headers.ts): sent by `vite preview` on the first visit and by the
 * service worker from its precache afterwards (offline too), and reported by
 * `/v1/local/status`. Served without the headers, everything still works on one thread and
 * the status says why.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { LocalStatus } from '../../src/protocol/local-status';
import { openApp, startE2E, waitForRuntime } from '../support/browser';

let e2e: Awaited<ReturnType<typeof startE2E>>;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const status = (page: Page) => page.evaluate(async () => (await (await fetch('/v1/local/status')).json()) as LocalStatus);

test('first visit, and an offline reload from the precache: the page is cross-origin isolated and the status says so', async () => {
  const context = await e2e.browser.newContext();
  try {
    const page = await context.newPage();
    const document = await page.goto(`${e2e.app.origin}/?test-models`);
    await waitForRuntime(page);
    // Chromium implements credentialless, so it is what the server chose for it.
    expect(document!.headers()['cross-origin-opener-policy']).toBe('same-origin');
    expect(document!.headers()['cross-origin-embedder-policy']).toBe('credentialless');
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    const first = await status(page);
    expect(first.isolation).toEqual({ crossOriginIsolated: true, reason: null });
    // All cores by default (wllama's own default would be half).
    expect(first.cpu.threads).toBe(cores);

    // Offline, only the service worker can have served the document: its headers isolate it too.
    await context.setOffline(true);
    await page.reload();
    await waitForRuntime(page);
    expect(await page.evaluate(() => [navigator.onLine, crossOriginIsolated, navigator.serviceWorker.controller !== null])).toEqual([false, true, true]);
    expect((await status(page)).isolation.crossOriginIsolated).toBe(true);
  } finally {
    await context.close();
  }
});

test('served without COOP/COEP: not isolated, the status says why, and responses still work (one thread)', async () => {
  const context = await e2e.browser.newContext();
  try {
    // A server that does not send the headers, for the document of the first visit.
    await context.route(`${e2e.app.origin}/?test-models`, async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['cross-origin-opener-policy'];
      delete headers['cross-origin-embedder-policy'];
      await route.fulfill({ response, headers });
    });
    const page = await openApp(context, e2e.app.origin);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    const s = await status(page);
    expect(s.isolation.crossOriginIsolated).toBe(false);
    expect(s.isolation.reason).toMatch(/^not cross-origin isolated: the page was served without COOP\/COEP/);
    expect(s.cpu.threads).toBe(1);
    const text = await page.evaluate(async () => (await window.sdk!.responses.create({ model: 'test-scripted', input: 'still fine' })).output_text);
    expect(text).toBe('You said: still fine');
  } finally {
    await context.close();
  }
});
