import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pacedBatches, type PaceOptions } from './paced-batches';

/** A source that yields each item `at` ms (fake clock), then ends or throws. */
async function* timed<T>(items: Array<{ at: number; value: T }>, end?: { at: number; error?: Error }): AsyncGenerator<T> {
  for (const item of items) {
    const wait = item.at - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    yield item.value;
  }
  if (end) {
    const wait = end.at - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (end.error) throw end.error;
  }
}

/** Reads every batch with the time it came out. */
async function collect<T>(source: AsyncIterable<T>, options: Omit<PaceOptions, 'now'>) {
  const out: Array<{ at: number; batch: T[] }> = [];
  const done = (async () => {
    for await (const batch of pacedBatches(source, { ...options, now: () => Date.now() })) out.push({ at: Date.now(), batch });
  })();
  await vi.runAllTimersAsync();
  await done;
  return out;
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('pacedBatches', () => {
  it('with no interval, hands over each item alone as it comes', async () => {
    const out = await collect(timed([0, 1, 2].map((v) => ({ at: v, value: v }))), { intervalMs: 0 });
    expect(out).toEqual([
      { at: 0, batch: [0] },
      { at: 1, batch: [1] },
      { at: 2, batch: [2] },
    ]);
  });

  it('never delays a stream slower than the interval', async () => {
    const out = await collect(timed([0, 20, 45, 70].map((at) => ({ at, value: at }))), { intervalMs: 16 });
    expect(out).toEqual([0, 20, 45, 70].map((at) => ({ at, batch: [at] })));
  });

  it('sends the first item at once and holds the ones that follow within the interval until it ends', async () => {
    // A token every 3 ms: the first alone, then one batch per 16 ms.
    const items = Array.from({ length: 13 }, (_, i) => ({ at: i * 3, value: i }));
    const out = await collect(timed(items, { at: 40 }), { intervalMs: 16 });
    expect(out).toEqual([
      { at: 0, batch: [0] },
      { at: 16, batch: [1, 2, 3, 4, 5] },
      { at: 32, batch: [6, 7, 8, 9, 10] },
      // The source ends at 40 ms: what is held goes out then, without waiting for the window.
      { at: 40, batch: [11, 12] },
    ]);
  });

  it('lets a burst through back to back after a pause, then paces', async () => {
    const items = Array.from({ length: 8 }, (_, i) => ({ at: i, value: i }));
    const out = await collect(timed(items, { at: 20 }), { intervalMs: 8, burst: 3 });
    expect(out.slice(0, 3)).toEqual([
      { at: 0, batch: [0] },
      { at: 1, batch: [1] },
      { at: 2, batch: [2] },
    ]);
    // The bucket is empty at 2 ms and refills one send per 8 ms (from 0 ms: 8 ms).
    expect(out[3]).toEqual({ at: 8, batch: [3, 4, 5, 6, 7] });
    expect(out).toHaveLength(4);
  });

  it('hands over what it holds before the source error', async () => {
    const boom = new Error('engine failed');
    const seen: number[][] = [];
    const run = (async () => {
      for await (const batch of pacedBatches(timed([0, 1, 2].map((at) => ({ at, value: at })), { at: 3, error: boom }), { intervalMs: 16, now: () => Date.now() })) {
        seen.push(batch);
      }
    })();
    const failed = expect(run).rejects.toBe(boom);
    await vi.runAllTimersAsync();
    await failed;
    expect(seen).toEqual([[0], [1, 2]]);
  });

  it.each([4, 0])('stops the source when the caller stops reading (interval %i ms)', async (intervalMs) => {
    let stopped = false;
    async function* endless() {
      try {
        for (let i = 0; ; i++) {
          await new Promise((resolve) => setTimeout(resolve, 1));
          yield i;
        }
      } finally {
        stopped = true;
      }
    }
    const run = (async () => {
      for await (const batch of pacedBatches(endless(), { intervalMs, now: () => Date.now() })) {
        if (batch.includes(5)) break;
      }
    })();
    await vi.advanceTimersByTimeAsync(50);
    await run;
    await vi.advanceTimersByTimeAsync(5);
    expect(stopped).toBe(true);
  });
});
