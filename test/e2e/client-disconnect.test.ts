/**
 * A client that goes away stops a foreground (non-background) stream in the runtime, as
 * an HTTP disconnect would: the response ends `incomplete` instead of generating on.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openApp, startE2E } from '../support/browser';

let e2e: Awaited<ReturnType<typeof startE2E>>;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const LONG = JSON.stringify({ script: 'z'.repeat(4000), delay_ms: 10 });

/** Polls until the response leaves `in_progress`; returns its final status. */
function settledStatus(page: Page, id: string): Promise<string> {
  return page.evaluate(async (id) => {
    for (let i = 0; i < 100; i++) {
      const r = await window.sdk!.responses.retrieve(id);
      if (r.status !== 'in_progress' && r.status !== 'queued') return r.status ?? 'none';
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return 'still in_progress';
  }, id);
}

test('aborting the fetch in the page aborts the request in the runtime', async () => {
  const context = await e2e.browser.newContext();
  const page = await openApp(context, e2e.app.origin);
  const id = await page.evaluate(async (input) => {
    const controller = new AbortController();
    const stream = await window.sdk!.responses.create(
      { model: 'test-scripted', input, stream: true },
      { signal: controller.signal },
    );
    let id = '';
    let deltas = 0;
    try {
      for await (const event of stream) {
        if (event.type === 'response.created') id = event.response.id;
        if (event.type === 'response.output_text.delta' && ++deltas === 5) controller.abort();
      }
    } catch {
      // the SDK reports the abort
    }
    return id;
  }, LONG);
  expect(await settledStatus(page, id)).toBe('incomplete');
  await context.close();
});

test('a stopped service worker counts as a disconnect for a foreground stream', async () => {
  const context = await e2e.browser.newContext();
  const page = await openApp(context, e2e.app.origin);
  type W = Window & { foreground?: { id?: string; deltas: number; error?: string } };
  await page.evaluate((input) => {
    const w = window as W;
    const state: NonNullable<W['foreground']> = { deltas: 0 };
    w.foreground = state;
    void (async () => {
      try {
        const stream = await w.swSdk!.responses.create({ model: 'test-scripted', input, stream: true });
        for await (const event of stream) {
          if (event.type === 'response.created') state.id = event.response.id;
          if (event.type === 'response.output_text.delta') state.deltas++;
        }
      } catch (error) {
        state.error = String(error);
      }
    })();
  }, LONG);
  await page.waitForFunction(() => ((window as W).foreground?.deltas ?? 0) >= 5);
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await page.waitForFunction(() => (window as W).foreground?.error !== undefined);
  const id = await page.evaluate(() => (window as W).foreground!.id!);
  expect(await settledStatus(page, id)).toBe('incomplete');
  await context.close();
});
