/**
 * The package as another app uses it, in Firefox: examples/pwa-openai installed from the
 * `npm pack` tarball (the same cached build as the Chromium test, test/support/package-example.ts),
 * served on its own origin with its own Workbox service worker.
 */
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Served } from '../../support/browser';
import { HAVE_FIREFOX, launchFirefox, NO_FIREFOX, pageErrors } from '../../support/firefox';
import { preparePackageExample, serveExample } from '../../support/package-example';

declare global {
  interface Window {
    example?: { client: import('openai').default; localClient: import('openai').default; runtime: import('local-responses').LocalRuntime; model: string };
  }
}

async function openExample(browser: Browser, origin: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(origin);
  await page.waitForFunction(() => window.example !== undefined, { timeout: 30_000 });
  return page;
}

/** Streams one answer with the SDK; `local`: through `localFetch` instead of plain fetch. */
function streamAnswer(page: Page, input: string, local = false): Promise<string> {
  return page.evaluate(
    async (input: string, local: boolean) => {
      const { client, localClient, model } = window.example!;
      const stream = await (local ? localClient : client).responses.create({ model, input, stream: true });
      let text = '';
      for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
      return text;
    },
    input,
    local,
  );
}

describe.skipIf(!HAVE_FIREFOX)(HAVE_FIREFOX ? 'Firefox: the example app, installed from the packed package' : `skipped: ${NO_FIREFOX}`, () => {
  let example: Served;
  let browser: Browser;
  beforeAll(async () => {
    const [app, launched] = await Promise.all([preparePackageExample(), launchFirefox()]);
    browser = launched;
    example = await serveExample(app);
  }, 600_000);
  afterAll(async () => {
    await Promise.all([browser?.close(), example?.close()]);
  });

  test('the SDK streams a response in an isolated page; a page without the runtime code is answered by the app’s own service worker', async () => {
    const page = await openExample(browser, example.origin);
    const errors = pageErrors(page);
    const seen = await page.evaluate(async () => ({
      worker: navigator.serviceWorker.controller?.scriptURL,
      isolated: crossOriginIsolated,
      leader: window.example!.runtime.isLeader(),
      status: ((await (await fetch('/v1/local/status')).json()) as { isolation: { crossOriginIsolated: boolean } }).isolation,
    }));
    expect(seen).toEqual({ worker: `${example.origin}/sw.js`, isolated: true, leader: true, status: { crossOriginIsolated: true, reason: null } });
    expect(await streamAnswer(page, 'hello from the example in firefox')).toBe('You said: hello from the example in firefox');
    expect(await streamAnswer(page, 'and through localFetch', true)).toBe('You said: and through localFetch');
    expect(errors).toEqual([]);
    // The SDK's plain fetch went straight to the runtime (startLocalRuntime routes /v1); a page
    // of the origin that does not start the runtime is answered by the example's own worker.
    const about = await browser.newPage();
    await about.goto(`${example.origin}/about.html`);
    const viaWorker = await about.evaluate(async () => {
      const response = await fetch('/v1/responses', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'test-scripted', input: 'through the worker in firefox', stream: true }),
      });
      return { controlled: navigator.serviceWorker.controller !== null, status: response.status, body: await response.text() };
    });
    await about.close();
    expect(viaWorker).toMatchObject({ controlled: true, status: 200 });
    expect(viaWorker.body).toContain('You said: through the worker in firefox');
    await page.close();
  });

  test('with service workers turned off, localFetch still answers', async () => {
    // As a person may set it (about:config), or as some private windows are.
    const noWorkers = await launchFirefox({ prefs: { 'dom.serviceWorkers.enabled': false } });
    try {
      const page = await openExample(noWorkers, example.origin);
      expect(await page.evaluate(() => navigator.serviceWorker?.controller ?? null)).toBeNull();
      expect(await streamAnswer(page, 'no worker at all', true)).toBe('You said: no worker at all');
    } finally {
      await noWorkers.close();
    }
  });
});
