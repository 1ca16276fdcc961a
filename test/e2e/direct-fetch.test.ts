/**
 * The page's own `fetch` of `/v1` goes straight to the runtime (startLocalRuntime's
 * `directFetch`), in the tab that runs it and in any other: with the service worker's
 * deadline shortened to 1.5 s (its test hook), a request that waits 4 s still completes in
 * either tab while the same request through the service worker gets its 503. A client
 * that goes away (abort, tab closed) still stops its foreground run; other URLs are the
 * browser's own fetch.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openApp, startE2E } from '../support/browser';

let e2e: Awaited<ReturnType<typeof startE2E>>;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const LONG = JSON.stringify({ script: 'z'.repeat(4000), delay_ms: 10 });

function settledStatus(page: Page, id: string): Promise<string> {
  return page.evaluate(async (id) => {
    for (let i = 0; i < 200; i++) {
      const r = await window.sdk!.responses.retrieve(id);
      if (r.status !== 'in_progress' && r.status !== 'queued') return r.status ?? 'none';
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return 'still running';
  }, id);
}

test('a wait longer than the service worker deadline: direct in both tabs completes, through the service worker it is a 503', async () => {
  const context = await e2e.browser.newContext();
  const leader = await openApp(context, e2e.app.origin);
  const other = await openApp(context, e2e.app.origin);
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  await sw.evaluate(() => {
    (globalThis as unknown as Record<symbol, number>)[Symbol.for('local-responses/test/fetch-deadline-ms')] = 1_500;
  });
  // ~4 s of work ahead of everything below.
  await leader.evaluate(() => window.sdk!.responses.create({ model: 'test-scripted', input: JSON.stringify({ script: 'b'.repeat(800), delay_ms: 20 }), background: true }));
  const ask = (page: Page, via: 'sdk' | 'swSdk') =>
    page.evaluate(async (via) => {
      const t0 = performance.now();
      try {
        const r = await window[via]!.responses.create({ model: 'test-scripted', input: `via ${via}` });
        return { text: r.output_text, ms: Math.round(performance.now() - t0) };
      } catch (error) {
        return { status: (error as { status?: number }).status, code: (error as { code?: string }).code, ms: Math.round(performance.now() - t0) };
      }
    }, via);
  const [leaderDirect, otherDirect, otherSw] = await Promise.all([ask(leader, 'sdk'), ask(other, 'sdk'), ask(other, 'swSdk')]);
  console.log(`direct fetch: leader ${JSON.stringify(leaderDirect)}, other tab ${JSON.stringify(otherDirect)}, other tab through the SW ${JSON.stringify(otherSw)}`);
  expect(leaderDirect).toMatchObject({ text: 'You said: via sdk' });
  expect(otherDirect).toMatchObject({ text: 'You said: via sdk' });
  expect(leaderDirect.ms).toBeGreaterThan(1_500);
  expect(otherDirect.ms).toBeGreaterThan(1_500);
  expect(otherSw).toMatchObject({ status: 503, code: 'queue_timeout' });
  await context.close();
});

test('in a tab that does not run the runtime, aborting stops the run, and so does closing the tab', async () => {
  const context = await e2e.browser.newContext();
  const leader = await openApp(context, e2e.app.origin);
  const other = await openApp(context, e2e.app.origin);
  expect(await other.evaluate(() => window.localRuntime!.isLeader())).toBe(false);

  const aborted = await other.evaluate(async (input) => {
    const controller = new AbortController();
    const stream = await window.sdk!.responses.create({ model: 'test-scripted', input, stream: true }, { signal: controller.signal });
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
  expect(await settledStatus(leader, aborted)).toBe('incomplete');

  type W = Window & { reading?: { id: string; deltas: number } };
  await other.evaluate((input) => {
    const reading = { id: '', deltas: 0 };
    (window as W).reading = reading;
    void (async () => {
      for await (const event of await window.sdk!.responses.create({ model: 'test-scripted', input, stream: true })) {
        if (event.type === 'response.created') reading.id = event.response.id;
        if (event.type === 'response.output_text.delta') reading.deltas++;
      }
    })();
  }, LONG);
  await other.waitForFunction(() => ((window as W).reading?.deltas ?? 0) >= 5);
  const closedId = await other.evaluate(() => (window as W).reading!.id);
  await other.close();
  expect(await settledStatus(leader, closedId)).toBe('incomplete');
  await context.close();
});

test('other URLs are the browser fetch: a Response from the network, with its URL', async () => {
  const context = await e2e.browser.newContext();
  const page = await openApp(context, e2e.app.origin);
  const seen = await page.evaluate(async () => {
    const asset = await fetch('/manifest.webmanifest');
    const api = await fetch('/v1/models');
    return { asset: { status: asset.status, url: asset.url }, api: api.status, routed: fetch !== window.browserFetch };
  });
  expect(seen.asset).toEqual({ status: 200, url: `${e2e.app.origin}/manifest.webmanifest` });
  expect(seen.api).toBe(200);
  expect(seen.routed).toBe(true);
  await context.close();
});
