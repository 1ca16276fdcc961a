import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TINY_GGUF_REPLY, makeTinyGguf } from '../fixtures/make-tiny-gguf';
import { configureRuntime, countRuntimes, openApp, serveModelMirror, startE2E, waitForRuntime } from '../support/browser';
import { serveFixtureWeb } from '../support/fixture-web';
import { throttleNetwork } from '../support/throttled-network';

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
    // Through the service worker (the page's own fetch would go straight to the runtime).
    const response = await window.browserFetch!('/v1/models');
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
    status: (await window.browserFetch!('/v1/models')).status,
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

test('at 10 Mbit/s the app is ready before Python and the CPU engine arrive; once they are kept, an offline reload runs both', { timeout: 180_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-visit-gguf-'));
  fs.writeFileSync(path.join(dir, 'test-tiny-llama.gguf'), makeTinyGguf());
  const mirror = await serveModelMirror(dir);
  const context = await e2e.browser.newContext();
  try {
    await configureRuntime(context, e2e.app.origin, { modelBase: mirror.base });
    const page = await context.newPage();
    const net = await throttleNetwork(context, page, { bitsPerSecond: 10_000_000 });
    await page.goto(`${e2e.app.origin}/?test-models`);
    await waitForRuntime(page);
    expect(await page.evaluate(async () => (await window.sdk!.responses.create({ model: 'test-scripted', input: 'hi' })).output_text)).toBe('You said: hi');
    // Ready, and none of the heavy files has finished downloading yet.
    const heavy = (url: string) => /\/pyodide\/|\.wasm$/.test(new URL(url).pathname);
    expect(net.requests.filter((r) => heavy(r.url)).map((r) => r.url)).toEqual([]);
    expect(net.bytes()).toBeLessThan(1_000_000);
    // The app says what is still on its way.
    expect(await page.locator('.offline-notice').textContent({ timeout: 10_000 })).toMatch(/^Making Python, the CPU engine.* available offline… \d+%$/);

    await page.waitForFunction(() => window.localRuntime!.offlineFiles.current()?.state === 'done', undefined, { timeout: 150_000, polling: 200 });
    expect(net.requests.filter((r) => heavy(r.url)).length).toBeGreaterThanOrEqual(3);
    await page.locator('.offline-notice').waitFor({ state: 'detached' });
    // The CPU model's file is downloaded while online (wllama keeps it in the origin's storage).
    const hello = () => page.evaluate(async () => (await window.sdk!.responses.create({ model: 'test-tiny-llama', input: 'Hello', temperature: 0, max_output_tokens: 64 })).output_text);
    expect((await hello()).trim()).toBe(TINY_GGUF_REPLY.trim());

    await context.setOffline(true);
    await page.reload();
    await waitForRuntime(page);
    const python = await page.evaluate(async () => {
      const input = JSON.stringify({ script: ['<tool_call>{"name":"python","arguments":{"code":"print(6 * 7)"}}</tool_call>', 'done'] });
      const r = await window.sdk!.responses.create({ model: 'test-scripted', input, tools: [{ type: 'code_interpreter', container: { type: 'auto' } }], include: ['code_interpreter_call.outputs'] });
      return r.output.find((o) => o.type === 'code_interpreter_call');
    });
    expect(python).toMatchObject({ status: 'completed', outputs: [{ type: 'logs', logs: '42\n' }] });
    expect((await hello()).trim()).toBe(TINY_GGUF_REPLY.trim());
  } finally {
    await context.setOffline(false);
    await context.close();
    await mirror.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
