import { afterAll, beforeAll, expect, test } from 'vitest';
import { countRuntimes, openApp, startE2E, waitForRuntime } from '../support/browser';
import { serveFixtureWeb } from '../support/fixture-web';

let e2e: Awaited<ReturnType<typeof startE2E>>;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

test('first visit: the page is controlled and /v1/models answers without a reload', async () => {
  const context = await e2e.browser.newContext();
  const page = await context.newPage();
  let navigations = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations++;
  });
  await page.goto(`${e2e.app.origin}/?test-models`);
  await page.locator('[data-runtime-state="ready"]').waitFor();

  const result = await page.evaluate(async () => {
    const response = await fetch('/v1/models');
    return {
      controlled: navigator.serviceWorker.controller !== null,
      status: response.status,
      body: (await response.json()) as { object: string; data: { id: string }[] },
      leader: window.localRuntime!.isLeader(),
    };
  });
  expect(navigations).toBe(1);
  expect(result.controlled).toBe(true);
  expect(result.status).toBe(200);
  expect(result.body.object).toBe('list');
  expect(result.body.data.map((m) => m.id)).toContain('test-scripted');
  expect(result.leader).toBe(true);
  expect(await countRuntimes(page)).toBe(1);
  await context.close();
});

test('a hard reload (bypassing the SW) still ends up controlled and answering', async () => {
  const context = await e2e.browser.newContext();
  const page = await openApp(context, e2e.app.origin);
  const cdp = await context.newCDPSession(page);
  // Like shift+reload: the page loads without its service worker.
  await cdp.send('Page.reload', { ignoreCache: true });
  await waitForRuntime(page);
  const result = await page.evaluate(async () => ({
    controlled: navigator.serviceWorker.controller !== null,
    status: (await fetch('/v1/models')).status,
  }));
  expect(result).toEqual({ controlled: true, status: 200 });
  await context.close();
});

test('without ?test-models the production page has no test model and no SDK global', async () => {
  const context = await e2e.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${e2e.app.origin}/`);
  await page.locator('[data-runtime-state="ready"]').waitFor();
  const result = await page.evaluate(async () => {
    const body = (await (await fetch('/v1/models')).json()) as { data: { id: string }[] };
    return { ids: body.data.map((m) => m.id), sdk: 'OpenAI' in window };
  });
  expect(result.ids).not.toContain('test-scripted');
  expect(result.sdk).toBe(false);
  await context.close();
});

test('a link that opens the app first configures nothing: no mirror, search provider, private network, limits or model', async () => {
  const web = await serveFixtureWeb();
  const context = await e2e.browser.newContext();
  try {
    const page = await context.newPage();
    const hostile = new URLSearchParams({ model: 'test-scripted', 'model-base': `${web.origin}/`, searxng: web.origin, 'python-time-limit-ms': '1', 'body-mode': 'stream' });
    await page.goto(`${e2e.app.origin}/?test-models&allow-private-network&${hostile}`);
    await waitForRuntime(page);
    const result = await page.evaluate(async (url) => {
      const status = await window.localRuntime!.control()!.status();
      // The scripted model searches and opens a page of the link's "provider".
      const call = (name: string, args: object) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
      const input = JSON.stringify({ script: [call('search', { query: 'leak' }), call('open_page', { url }), 'done'] });
      const response = await window.sdk!.responses.create({ model: 'test-scripted', input, tools: [{ type: 'web_search' }] });
      return { modelBase: status.modelBase ?? null, calls: response.output.filter((o) => o.type === 'web_search_call').map((o) => o.status) };
    }, `${web.origin}/pages/paris.html`);
    // The search went to the default provider (offline here), the page was refused (private network).
    expect(result).toEqual({ modelBase: null, calls: ['failed', 'failed'] });
    expect(web.requests).toEqual([]);
    // And the link's model was not saved: a later visit still asks for one.
    await page.goto(`${e2e.app.origin}/?test-models`);
    await waitForRuntime(page);
    expect((await page.locator('button.model-button').textContent())?.trim()).toBe('Choose a model');
  } finally {
    await context.close();
    await web.close();
  }
});
