/**
 * The package as another app uses it: examples/pwa-openai, installed from the `npm pack`
 * tarball and served on its own origin, with its own Workbox service worker.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { countRuntimes, launchChromium, type Served } from '../support/browser';
import { preparePackageExample, serveExample } from '../support/package-example';

declare global {
  interface Window {
    example?: { client: import('openai').default; localClient: import('openai').default; runtime: import('local-responses').LocalRuntime; model: string };
  }
}

let browser: Browser;
let example: Served;

beforeAll(async () => {
  const [app, launched] = await Promise.all([preparePackageExample(), launchChromium()]);
  browser = launched;
  example = await serveExample(app);
}, 600_000);

afterAll(async () => {
  await Promise.all([browser?.close(), example?.close()]);
});

async function openExample(context: BrowserContext, path = '/'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(example.origin + path);
  await page.waitForFunction(() => window.example !== undefined, undefined, { timeout: 30_000 });
  return page;
}

/** Streams one answer with the SDK; `local`: through `localFetch` instead of plain fetch. */
function streamAnswer(page: Page, input: string, local = false): Promise<string> {
  return page.evaluate(
    async ({ input, local }) => {
      const { client, localClient, model } = window.example!;
      const stream = await (local ? localClient : client).responses.create({ model, input, stream: true });
      let text = '';
      for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
      return text;
    },
    { input, local },
  );
}

describe('the example app, installed from the packed package', () => {
  let context: BrowserContext;
  let first: Page;

  beforeAll(async () => {
    context = await browser.newContext();
    first = await openExample(context);
  });
  afterAll(() => context?.close());

  test('the SDK streams a response straight to the runtime; a page without the runtime code reaches /v1 through the app’s own service worker', async () => {
    const worker = await first.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
    expect(worker).toBe(`${example.origin}/sw.js`);
    // The SDK on the page's plain fetch, which startLocalRuntime routes straight to the runtime.
    expect(await streamAnswer(first, 'hello from the example')).toBe('You said: hello from the example');
    expect(await first.evaluate(() => window.example!.runtime.isLeader())).toBe(true);
    // A page of the origin that does not start the runtime: only the example's worker can answer /v1 there.
    const about = await context.newPage();
    await about.goto(`${example.origin}/about.html`);
    const viaWorker = await about.evaluate(async (model) => {
      const response = await fetch('/v1/responses', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, input: 'through the worker', stream: true }),
      });
      return { controlled: navigator.serviceWorker.controller !== null, status: response.status, body: await response.text() };
    }, await first.evaluate(() => window.example!.model));
    await about.close();
    expect(viaWorker).toMatchObject({ controlled: true, status: 200 });
    expect(viaWorker.body).toContain('event: response.completed');
    expect(viaWorker.body).toContain('You said: through the worker'); // the completed response's text
  });

  test('the app is cross-origin isolated (its server and its worker send COOP/COEP), and the runtime says so', async () => {
    const seen = await first.evaluate(async () => ({
      isolated: crossOriginIsolated,
      status: (await (await fetch('/v1/local/status')).json()) as { isolation: { crossOriginIsolated: boolean } },
    }));
    expect(seen.isolated).toBe(true);
    expect(seen.status.isolation.crossOriginIsolated).toBe(true);
  });

  test('a second tab shares the one runtime', async () => {
    const second = await openExample(context);
    expect(await second.evaluate(() => window.example!.runtime.isLeader())).toBe(false);
    expect(await streamAnswer(second, 'from tab two')).toBe('You said: from tab two');
    expect(await countRuntimes(second)).toBe(1);
    await second.close();
  });

  test('its precached pages still load offline', async () => {
    // The worker's precache is filled during install; it is active (and controlling) by now.
    await context.setOffline(true);
    try {
      const page = await context.newPage();
      await page.goto(`${example.origin}/about.html`);
      await expect(page.locator('h1').textContent()).resolves.toBe('About this example');
      await page.goto(`${example.origin}/`);
      await expect(page.locator('h1').textContent()).resolves.toBe('Ask the model in your browser');
      // Served by the example's worker from its precache, which kept the headers its server sent.
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      await page.close();
    } finally {
      await context.setOffline(false);
    }
  });
});

test('localFetch answers with service workers blocked', async () => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await openExample(context);
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    expect(await streamAnswer(page, 'no worker at all', true)).toBe('You said: no worker at all');
  } finally {
    await context.close();
  }
});
