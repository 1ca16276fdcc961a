/**
 * Issue 27, as a client lives it: a background streamed response is read in one tab while
 * another tab runs the runtime; the leader tab closes mid-stream (at several points, so the
 * close falls at different places between the runtime's event-log writes); the reader does
 * what the API says after a dropped stream — `retrieve(id, {stream: true, starting_after: <the
 * last sequence number it saw>})` — and always gets the terminal event, then the end of the
 * stream, from the runtime that took over.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openApp, startE2E } from '../support/browser';

let e2e: Awaited<ReturnType<typeof startE2E>>;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const WORDS = Array.from({ length: 400 }, (_, i) => `w${i} `).join('');

/** Starts the response in `reader` and reads its stream until `events` came; then `pauseMs` more of reading. */
async function readUntil(reader: Page, events: number, pauseMs: number): Promise<{ id: string; lastSeen: number; text: string }> {
  return reader.evaluate(
    async ({ input, events, pauseMs }) => {
      const stream = await window.sdk!.responses.create({ model: 'test-scripted', input, background: true, stream: true });
      let id = '';
      let lastSeen = -1;
      let text = '';
      let count = 0;
      let stopAt = Infinity;
      for await (const event of stream) {
        if (event.type === 'response.created') id = event.response.id;
        if (event.type === 'response.output_text.delta') text += event.delta;
        lastSeen = event.sequence_number;
        if (++count === events) stopAt = performance.now() + pauseMs;
        if (performance.now() >= stopAt) break;
      }
      return { id, lastSeen, text };
    },
    { input: JSON.stringify({ script: WORDS, delay_ms: 20, chunk: 3 }), events, pauseMs },
  );
}

/** The client's resume loop after its stream dropped: the SDK's own iteration, retried while the next runtime starts. */
async function resume(reader: Page, id: string, after: number) {
  return reader.evaluate(
    async ({ id, after }) => {
      const t0 = performance.now();
      for (;;) {
        const events: Array<{ type: string; sequence_number: number; status?: string }> = [];
        try {
          for await (const event of await window.sdk!.responses.retrieve(id, { stream: true, starting_after: after }))
            events.push({ type: event.type, sequence_number: event.sequence_number, ...('response' in event ? { status: event.response.status } : {}) });
          // The raw stream, to see its end as sent: the terminal event, then [DONE].
          const raw = await (await fetch(`/v1/responses/${id}?stream=true&starting_after=${after}`)).text();
          const full: number[] = [];
          for await (const event of await window.sdk!.responses.retrieve(id, { stream: true })) full.push(event.sequence_number);
          const stored = await window.sdk!.responses.retrieve(id);
          return { events, raw, full, stored: { status: stored.status, text: stored.output_text }, ms: performance.now() - t0 };
        } catch {
          // 503 (or a dropped connection) while the next tab starts its runtime: ask again.
        }
        if (performance.now() - t0 > 20_000) throw new Error('the response never became readable again');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    { id, after },
  );
}

test('the leader closes mid-stream at several points; every resume ends with the terminal event and [DONE]', async () => {
  const context = await e2e.browser.newContext();
  let leader = await openApp(context, e2e.app.origin);
  // Early; mid; mid and read on past the next flush (~60 ms); just after an event arrived.
  const points: Array<[events: number, pauseMs: number]> = [
    [3, 0],
    [60, 0],
    [40, 70],
    [25, 10],
  ];
  for (const [events, pauseMs] of points) {
    const reader = await openApp(context, e2e.app.origin);
    expect(await reader.evaluate(() => window.localRuntime!.isLeader())).toBe(false);
    const { id, lastSeen, text } = await readUntil(reader, events, pauseMs);
    await leader.close();

    const { events: resumed, raw, full, stored } = await resume(reader, id, lastSeen);
    const label = `closed after ${events} events (+${pauseMs} ms)`;
    expect(resumed.at(-1), label).toMatchObject({ type: 'response.failed', status: 'failed' });
    expect(resumed[0]!.sequence_number, label).toBeGreaterThan(lastSeen);
    expect(raw.trimEnd().endsWith('data: [DONE]'), label).toBe(true);
    expect(raw, label).toContain('response.failed');
    // The full replay: strictly increasing numbers, ending with the same terminal event.
    expect(full.every((n, i) => i === 0 || n > full[i - 1]!), label).toBe(true);
    expect(full.at(-1), label).toBe(resumed.at(-1)!.sequence_number);
    // …numbered above anything the reader saw: no number it saw now means another event.
    expect(full.at(-1)!, label).toBeGreaterThan(lastSeen);
    // What was kept is what the script said, up to where the log ended; the reader saw a
    // prefix of the same text.
    expect(stored.status, label).toBe('failed');
    expect(WORDS.startsWith(stored.text), label).toBe(true);
    expect(WORDS.startsWith(text), label).toBe(true);

    // The reader's tab runs the runtime now; the next round reads from a new tab.
    expect(await reader.evaluate(() => window.localRuntime!.isLeader())).toBe(true);
    leader = reader;
  }
  await context.close();
});
