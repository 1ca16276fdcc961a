/**
 * Another origin must not be able to use this origin's /v1: it cannot read it (the edge
 * sends no CORS headers), and what it can make the browser send without reading — a form
 * post, a link — is refused by the service worker before the runtime sees it. Nor can it
 * frame the app.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openApp, serveOtherOrigin, startE2E, type Served } from '../support/browser';

let e2e: Awaited<ReturnType<typeof startE2E>>;
let other: Served;
beforeAll(async () => {
  [e2e, other] = await Promise.all([startE2E(), serveOtherOrigin('<!doctype html><title>elsewhere</title>')]);
});
afterAll(async () => {
  await Promise.all([e2e?.close(), other?.close()]);
});

test('a page on another origin cannot read /v1 (no CORS headers)', async () => {
  const context = await e2e.browser.newContext();
  const app = await openApp(context, e2e.app.origin);
  const sameOrigin = await app.evaluate(async () => {
    const response = await fetch('/v1/models');
    return { status: response.status, acao: response.headers.get('access-control-allow-origin') };
  });
  expect(sameOrigin).toEqual({ status: 200, acao: null });

  const foreign = await context.newPage();
  await foreign.goto(other.origin);
  const attempts = await foreign.evaluate(async (target) => {
    const outcome = async (init?: RequestInit) => {
      try {
        const response = await fetch(`${target}/v1/models`, init);
        return { type: response.type, readable: response.type !== 'opaque' ? await response.text() : null };
      } catch (error) {
        return { error: (error as Error).name };
      }
    };
    return {
      cors: await outcome(),
      post: await outcome({ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"test-scripted","input":"x"}' }),
      noCors: await outcome({ mode: 'no-cors' }),
    };
  }, e2e.app.origin);
  expect(attempts.cors).toEqual({ error: 'TypeError' });
  expect(attempts.post).toEqual({ error: 'TypeError' });
  expect(attempts.noCors).toEqual({ type: 'opaque', readable: null });
  await context.close();
});

/** Posts a form from `page` (on another origin) to `url` and returns the page it lands on. */
async function postForm(page: Page, url: string): Promise<string> {
  await page.goto(other.origin);
  await Promise.all([
    page.waitForURL(url),
    page.evaluate((action) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = action;
      document.body.append(form);
      form.submit();
    }, url),
  ]);
  return page.locator('body').innerText();
}

test("another origin's form posts to /v1 are refused (403) and change nothing: no cancel, no download", async () => {
  const context = await e2e.browser.newContext();
  const app = await openApp(context, e2e.app.origin);
  const running = await app.evaluate(async () => {
    const input = JSON.stringify({ script: 'a long answer '.repeat(40), delay_ms: 40 });
    return (await window.sdk!.responses.create({ model: 'test-scripted', input, background: true })).id;
  });

  const foreign = await context.newPage();
  const cancelPage = await postForm(foreign, `${e2e.app.origin}/v1/responses/${running}/cancel`);
  expect(JSON.parse(cancelPage)).toMatchObject({ error: { type: 'invalid_request_error', code: 'cross_origin_refused' } });
  const loadPage = await postForm(foreign, `${e2e.app.origin}/v1/local/models/Qwen3-0.6B-q4f16_1-MLC/load`);
  expect(JSON.parse(loadPage)).toMatchObject({ error: { code: 'cross_origin_refused' } });

  const after = await app.evaluate(async (id) => {
    const status = (await (await fetch('/v1/local/status')).json()) as { loading: unknown };
    return { response: (await window.sdk!.responses.retrieve(id)).status, loading: status.loading };
  }, running);
  expect(after).toEqual({ response: 'in_progress', loading: null });
  await app.evaluate((id) => window.sdk!.responses.cancel(id), running);
  await context.close();
});

/** Frames the app from a page on the other origin; the URL the frame ended up at. */
async function frameApp(page: Page): Promise<string> {
  await page.goto(other.origin);
  await page.evaluate((src) => {
    const frame = document.createElement('iframe');
    frame.src = src;
    document.body.append(frame);
    return new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  }, `${e2e.app.origin}/?test-models`);
  return page.frames().find((f) => f !== page.mainFrame())!.url();
}

test('another origin cannot frame the app, served by the network or by the service worker', async () => {
  // A refused frame shows Chromium's error page, not a document of the app's origin.
  const fresh = await e2e.browser.newContext();
  expect(await frameApp(await fresh.newPage())).not.toContain(e2e.app.origin);
  await fresh.close();
  // With the app installed, its (same-site) service worker serves the frame from the precache.
  const context = await e2e.browser.newContext();
  await openApp(context, e2e.app.origin);
  expect(await frameApp(await context.newPage())).not.toContain(e2e.app.origin);
  await context.close();
});
