/** Without any tab running the runtime, /v1 answers 503 with an OpenAI-shaped error. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { countRuntimes, openApp, startE2E } from '../support/browser';

let e2e: Awaited<ReturnType<typeof startE2E>>;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

test('no runtime: 503 runtime_unavailable telling the user to open the app', async () => {
  const context = await e2e.browser.newContext();
  const app = await openApp(context, e2e.app.origin);
  // A controlled page of the origin that does not start a runtime (a plain asset).
  const bystander = await context.newPage();
  await bystander.goto(`${e2e.app.origin}/sw.js`);
  expect(await bystander.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await app.close();
  // The tab is closed before its worker is torn down: wait until the runtime is gone.
  await expect.poll(() => countRuntimes(bystander)).toBe(0);

  const answer = await bystander.evaluate(async () => {
    const t0 = performance.now();
    const response = await fetch('/v1/models');
    return { status: response.status, body: (await response.json()) as unknown, ms: performance.now() - t0, acao: response.headers.get('access-control-allow-origin') };
  });
  expect(answer.status).toBe(503);
  expect(answer.acao).toBeNull();
  expect(answer.body).toEqual({
    error: {
      type: 'server_error',
      code: 'runtime_unavailable',
      param: null,
      message: expect.stringMatching(/^No local runtime is running\. Open the app \(http:\/\/127\.0\.0\.1:\d+\/\) in a tab to start it\.$/),
    },
  });
  // The SW waited (bounded) for a page to hand it a runtime before giving up.
  expect(answer.ms).toBeGreaterThan(2_000);
  expect(answer.ms).toBeLessThan(10_000);
  await context.close();
});

test('the page-side fetch reaches the runtime without the service worker', async () => {
  const context = await e2e.browser.newContext();
  const page = await openApp(context, e2e.app.origin);
  const result = await page.evaluate(async () => {
    const sdk = new window.OpenAI!({
      baseURL: `${location.origin}/v1`,
      apiKey: 'local',
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
      fetch: window.localRuntime!.fetch,
    });
    // Unregister the SW first: only the direct path is left.
    for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
    const stream = await sdk.responses.create({ model: 'test-scripted', input: 'direct', stream: true });
    let text = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
    return text;
  });
  expect(result).toBe('You said: direct');
  await context.close();
});
