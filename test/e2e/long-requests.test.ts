/**
 * Past the browser's limit: Chromium ends a service worker's fetch after ~5 minutes (307 s
 * measured), so `/v1` requests from pages of the origin go straight to the runtime over a
 * MessagePort (startLocalRuntime's `directFetch`). A plain request and a stream queued ~5.5
 * minutes behind a running response both end as API answers, through the real `openai` SDK
 * with `baseURL: location.origin + '/v1'` — the plain one in the tab that runs the runtime,
 * the stream in another tab (its own port, connected through the service worker once).
 * Alongside, through the service worker (the SDK on the browser's own fetch, with the real
 * 4.5-minute deadline), a plain request gets its 503 and a background stream its `error`
 * event before the browser's cut, and the stream is resumed as told to its end. All cases
 * run concurrently, so the test costs the wait once (~6 minutes).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openApp, startE2E } from '../support/browser';

let e2e: Awaited<ReturnType<typeof startE2E>>;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

/** How long the running response lasts: 330 tokens, one a second (the scripted model's `delay_ms`). */
const RUNNING_TOKENS = 330;
const BROWSER_LIMIT_MS = 307_000;

interface Outcome {
  ms: number;
  text?: string;
  status?: string;
  events?: number;
  error?: string;
}

test('a plain request and a stream queued ~5.5 minutes behind a running response both end as API answers', { timeout: 480_000 }, async () => {
  const context = await e2e.browser.newContext();
  const leader = await openApp(context, e2e.app.origin);
  const other = await openApp(context, e2e.app.origin);
  expect(await leader.evaluate(() => window.localRuntime!.isLeader())).toBe(true);
  expect(await other.evaluate(() => window.localRuntime!.isLeader())).toBe(false);

  const runningId = await leader.evaluate(async (tokens) => {
    const input = JSON.stringify({ script: 'abcd'.repeat(tokens), delay_ms: 1000 });
    const created = await window.sdk!.responses.create({ model: 'test-scripted', input, background: true });
    return created.id;
  }, RUNNING_TOKENS);

  const plain = leader.evaluate(async (): Promise<Outcome> => {
    const t0 = performance.now();
    try {
      const r = await window.sdk!.responses.create({ model: 'test-scripted', input: 'plain, after the wait' });
      return { ms: performance.now() - t0, text: r.output_text, status: r.status };
    } catch (error) {
      return { ms: performance.now() - t0, error: String(error) };
    }
  });
  const streamed = other.evaluate(async (): Promise<Outcome> => {
    const t0 = performance.now();
    let text = '';
    let events = 0;
    let status: string | undefined;
    try {
      const stream = await window.sdk!.responses.create({ model: 'test-scripted', input: 'streamed, after the wait', stream: true });
      for await (const event of stream) {
        events++;
        if (event.type === 'response.output_text.delta') text += event.delta;
        if (event.type === 'response.completed') status = event.response.status;
      }
      return { ms: performance.now() - t0, text, events, ...(status ? { status } : {}) };
    } catch (error) {
      return { ms: performance.now() - t0, text, events, error: String(error) };
    }
  });
  const swPlain = other.evaluate(async () => {
    const t0 = performance.now();
    try {
      await window.swSdk!.responses.create({ model: 'test-scripted', input: 'through the SW: must never run' });
      return { ms: performance.now() - t0, status: 200 };
    } catch (error) {
      const e = error as { status?: number; code?: string; headers?: Headers };
      return { ms: performance.now() - t0, status: e.status, code: e.code, retryAfter: e.headers?.get('retry-after'), error: String(error) };
    }
  });
  const swStream = other.evaluate(async () => {
    const t0 = performance.now();
    let id = '';
    let ended: { ms: number; code?: string; message: string; api: boolean } | undefined;
    try {
      for await (const event of await window.swSdk!.responses.create({ model: 'test-scripted', input: 'through the SW, background', stream: true, background: true })) {
        if (event.type === 'response.created') id = event.response.id;
      }
    } catch (error) {
      ended = { ms: performance.now() - t0, code: (error as { code?: string }).code, message: String(error), api: error instanceof window.OpenAI!.APIError };
    }
    // Resumed as told (straight to the runtime now), it runs to its end.
    const after = Number(/starting_after=(\d+)/.exec(ended?.message ?? '')?.[1]);
    let status: string | undefined;
    let text = '';
    for await (const event of await window.sdk!.responses.retrieve(id, { stream: true, starting_after: after })) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') status = event.response.status;
    }
    return { ended, after, resumed: { status, text, ms: performance.now() - t0 } };
  });
  const [p, s, sp, ss] = await Promise.all([plain, streamed, swPlain, swStream]);
  const running = await leader.evaluate(async (id) => (await window.sdk!.responses.retrieve(id)).status, runningId);
  console.log(`long requests: plain ${JSON.stringify(p)}; streamed ${JSON.stringify(s)}; running response ${running}`);
  console.log(`through the service worker: plain ${JSON.stringify(sp)}; background stream ${JSON.stringify(ss)}`);

  expect(p.error).toBeUndefined();
  expect(p).toMatchObject({ status: 'completed', text: 'You said: plain, after the wait' });
  expect(s.error).toBeUndefined();
  expect(s).toMatchObject({ status: 'completed', text: 'You said: streamed, after the wait' });
  // Both waited past the point where the browser cuts a service worker's fetch.
  expect(p.ms).toBeGreaterThan(BROWSER_LIMIT_MS);
  expect(s.ms).toBeGreaterThan(BROWSER_LIMIT_MS);
  expect(running).toBe('completed');

  // Through the service worker: answered at the 4.5-minute deadline, before the browser's cut at ~5.
  expect(sp).toMatchObject({ status: 503, code: 'queue_timeout', retryAfter: '30' });
  expect(sp.ms).toBeGreaterThan(265_000);
  expect(sp.ms).toBeLessThan(BROWSER_LIMIT_MS);
  expect(ss.ended).toMatchObject({ code: 'connection_time_limit', api: true });
  expect(ss.ended!.ms).toBeLessThan(BROWSER_LIMIT_MS);
  expect(ss.resumed).toMatchObject({ status: 'completed', text: 'You said: through the SW, background' });
  await context.close();
});
