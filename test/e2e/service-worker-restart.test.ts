/**
 * The SW is disposable: stopping it mid-stream costs the open connection only. The
 * background response runs on in the runtime and is resumed from its last sequence number.
 */
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openApp, startE2E } from '../support/browser';

let e2e: Awaited<ReturnType<typeof startE2E>>;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

interface Reading {
  id?: string;
  events: { type: string; sequence_number: number; delta?: string }[];
  error?: string;
}
type TestWindow = Window & { reading?: Reading };

const SCRIPT = 'The quick brown fox jumps over the lazy dog. '.repeat(8);

test('SW stopped mid-stream: next request works and the stream resumes with exactly the missing events', async () => {
  const context = await e2e.browser.newContext();
  const page = await openApp(context, e2e.app.origin);

  // Start reading a background stream in the page; the state is polled from here.
  await page.evaluate((script) => {
    const w = window as TestWindow;
    const reading: Reading = { events: [] };
    w.reading = reading;
    void (async () => {
      try {
        const input = JSON.stringify({ script, delay_ms: 15 });
        const stream = await w.swSdk!.responses.create({ model: 'test-scripted', input, background: true, stream: true });
        for await (const event of stream) {
          if (event.type === 'response.created') reading.id = event.response.id;
          reading.events.push({
            type: event.type,
            sequence_number: event.sequence_number,
            delta: event.type === 'response.output_text.delta' ? event.delta : undefined,
          });
        }
      } catch (error) {
        reading.error = String(error);
      }
    })();
  }, SCRIPT);
  await page.waitForFunction(() => ((window as TestWindow).reading?.events.length ?? 0) >= 10);

  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await page.waitForFunction(() => (window as TestWindow).reading?.error !== undefined, null, { timeout: 10_000 });
  const before = await page.evaluate(() => (window as TestWindow).reading!);
  expect(before.error).toMatch(/network|terminated|fetch/i);
  expect(before.events.at(-1)?.type).not.toBe('response.completed');

  // A fresh SW starts, asks the leader tab for a port, and serves.
  const models = await page.evaluate(async () => (await window.swSdk!.models.list()).data.map((m) => m.id));
  expect(models).toContain('test-scripted');

  const last = before.events.at(-1)!.sequence_number;
  const resumed = await page.evaluate(
    async ({ id, last }) => {
      const stream = await window.sdk!.responses.retrieve(id, { stream: true, starting_after: last });
      const events: { type: string; sequence_number: number; delta?: string }[] = [];
      for await (const event of stream as AsyncIterable<ResponseStreamEvent>) {
        events.push({
          type: event.type,
          sequence_number: event.sequence_number,
          delta: event.type === 'response.output_text.delta' ? event.delta : undefined,
        });
      }
      return events;
    },
    { id: before.id!, last },
  );
  const sequence = [...before.events, ...resumed].map((e) => e.sequence_number);
  expect(resumed[0]?.sequence_number).toBe(last + 1);
  expect(sequence).toEqual(sequence.map((_, i) => sequence[0]! + i)); // no gap, no repeat
  expect(resumed.at(-1)?.type).toBe('response.completed');
  const text = [...before.events, ...resumed].map((e) => e.delta ?? '').join('');
  expect(text).toBe(SCRIPT);
  await context.close();
});
