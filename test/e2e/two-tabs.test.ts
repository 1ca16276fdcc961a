/**
 * One runtime per origin: tabs elect a leader with Web Locks; the others reach it through
 * the service worker; closing the leader hands the runtime over to the next tab.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { countRuntimes, openApp, startE2E } from '../support/browser';

let e2e: Awaited<ReturnType<typeof startE2E>>;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

test('two tabs share one runtime; closing the leader hands over and the cut-off response ends failed', async () => {
  const context = await e2e.browser.newContext();
  const first = await openApp(context, e2e.app.origin);
  const second = await openApp(context, e2e.app.origin);

  expect(await countRuntimes(second)).toBe(1);
  expect(await first.evaluate(() => window.localRuntime!.isLeader())).toBe(true);
  expect(await second.evaluate(() => window.localRuntime!.isLeader())).toBe(false);

  // The second tab's requests reach the first tab's runtime through the SW.
  const text = await second.evaluate(
    async () => (await window.sdk!.responses.create({ model: 'test-scripted', input: 'from tab 2' })).output_text,
  );
  expect(text).toBe('You said: from tab 2');

  // A background response still running when its runtime's tab closes.
  const id = await second.evaluate(async () => {
    const input = JSON.stringify({ script: 'y'.repeat(4000), delay_ms: 20 });
    const created = await window.sdk!.responses.create({ model: 'test-scripted', input, background: true });
    for (;;) {
      const r = await window.sdk!.responses.retrieve(created.id);
      if (r.status === 'in_progress') return created.id;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  const closedAt = Date.now();
  await first.close();

  const outcome = await second.evaluate(async (id) => {
    const t0 = performance.now();
    for (;;) {
      try {
        const r = await window.sdk!.responses.retrieve(id);
        if (r.status !== 'in_progress' && r.status !== 'queued') {
          return { status: r.status, error: r.error, ms: performance.now() - t0, leader: window.localRuntime!.isLeader() };
        }
      } catch {
        // 503 while the new leader starts its runtime: keep asking.
      }
      if (performance.now() - t0 > 20_000) return { status: 'still running', ms: performance.now() - t0, leader: false };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, id);
  expect(outcome.status).toBe('failed');
  expect(outcome.error).toBeTruthy();
  expect(outcome.leader).toBe(true);
  expect(Date.now() - closedAt).toBeLessThan(10_000);
  expect(await countRuntimes(second)).toBe(1);

  // And the new runtime serves new work.
  const after = await second.evaluate(
    async () => (await window.sdk!.responses.create({ model: 'test-scripted', input: 'after handover' })).output_text,
  );
  expect(after).toBe('You said: after handover');
  await context.close();
});
