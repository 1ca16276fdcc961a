/** Another origin must not be able to read this origin's /v1: the edge sends no CORS headers. */
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
