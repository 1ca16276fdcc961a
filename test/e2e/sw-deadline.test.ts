/**
 * Clients that still come through the service worker (here the `openai` SDK on the browser's
 * own fetch, `window.swSdk`) are answered before the browser cuts the fetch. The deadline
 * (4.5 minutes) is shortened to 3 s through the test hook on the service worker's global,
 * which only a test driver reaches (DevTools protocol).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openApp, startE2E } from '../support/browser';

let e2e: Awaited<ReturnType<typeof startE2E>>;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const DEADLINE_MS = 3_000;

test('through the service worker: a plain request that cannot start gets a 503 and never runs; streams end with an error event, a background one resumable', async () => {
  const context = await e2e.browser.newContext();
  const page = await openApp(context, e2e.app.origin);
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  await sw.evaluate((ms) => {
    (globalThis as unknown as Record<symbol, number>)[Symbol.for('local-responses/test/fetch-deadline-ms')] = ms;
  }, DEADLINE_MS);

  const outcome = await page.evaluate(async () => {
    const direct = window.sdk!;
    const viaSw = window.swSdk!;
    // Keeps the model busy ~8 s (sent directly: no deadline applies to it).
    const busy = await direct.responses.create({ model: 'test-scripted', input: JSON.stringify({ script: 'b'.repeat(1600), delay_ms: 20 }), background: true });
    const [plainConversation, streamConversation] = await Promise.all([direct.conversations.create(), direct.conversations.create()]);
    const t0 = performance.now();

    const plain = viaSw.responses.create({ model: 'test-scripted', input: 'plain: must never run', conversation: plainConversation.id }).then(
      () => ({ status: 200, code: null, retryAfter: null, message: 'answered', ms: performance.now() - t0 }),
      (error: InstanceType<NonNullable<typeof window.OpenAI>['APIError']>) => ({
        status: error.status,
        code: error.code,
        retryAfter: error.headers?.get('retry-after') ?? null,
        message: error.message,
        ms: performance.now() - t0,
      }),
    );
    const readStream = async (background: boolean, conversation?: string) => {
      const types: string[] = [];
      let id = '';
      let last = -1;
      try {
        const stream = await viaSw.responses.create({ model: 'test-scripted', input: `stream, background ${background}`, stream: true, background, ...(conversation ? { conversation } : {}) });
        for await (const event of stream) {
          types.push(event.type);
          last = event.sequence_number;
          if (event.type === 'response.created') id = event.response.id;
        }
        return { types, id, last, ms: performance.now() - t0 };
      } catch (error) {
        const e = error as { status?: number; code?: string; message: string };
        // Not a `TypeError: Failed to fetch`: the SDK's own APIError (class names are minified in the build).
        const kind = error instanceof window.OpenAI!.APIError ? 'APIError' : String(error);
        return { types, id, last, ms: performance.now() - t0, error: { kind, status: e.status, code: e.code, message: e.message } };
      }
    };
    const [p, foreground, background] = await Promise.all([plain, readStream(false, streamConversation.id), readStream(true)]);

    // The busy response ends; the request that got the 503 still never runs, nor the foreground stream.
    for (;;) {
      const r = await direct.responses.retrieve(busy.id);
      if (r.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Resumed as told, the background one runs to its end.
    const after = Number(/starting_after=(\d+)/.exec(background.error?.message ?? '')?.[1]);
    const rest: string[] = [];
    for await (const event of await direct.responses.retrieve(background.id, { stream: true, starting_after: after })) rest.push(event.type);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const items = async (id: string) => (await direct.conversations.items.list(id)).data.length;
    return { p, foreground, background, after, rest, plainItems: await items(plainConversation.id), streamItems: await items(streamConversation.id) };
  });
  console.log(`through the service worker, deadline ${DEADLINE_MS} ms: ${JSON.stringify(outcome)}`);

  expect(outcome.p).toMatchObject({ status: 503, code: 'queue_timeout', retryAfter: '30' });
  expect(outcome.p.message).toMatch(/waited \d+ s behind other work/);
  expect(outcome.p.ms).toBeGreaterThan(DEADLINE_MS - 500);
  expect(outcome.p.ms).toBeLessThan(DEADLINE_MS + 3_000);
  expect(outcome.plainItems).toBe(0);

  // The SDK turns an `error` event into an APIError (no HTTP status): an API answer, not a network failure.
  expect(outcome.foreground.types).toEqual(['response.created', 'response.queued']);
  expect(outcome.foreground.error).toMatchObject({ kind: 'APIError', code: 'queue_timeout' });
  expect(outcome.streamItems).toBe(0);

  expect(outcome.background.error).toMatchObject({ kind: 'APIError', code: 'connection_time_limit' });
  expect(outcome.background.error!.message).toContain(`/v1/responses/${outcome.background.id}?stream=true&starting_after=${outcome.background.last}`);
  expect(outcome.after).toBe(outcome.background.last);
  expect(outcome.rest.at(-1)).toBe('response.completed');
  await context.close();
});
