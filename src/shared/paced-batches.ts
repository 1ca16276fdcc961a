/**
 * Paces a fast stream: its items leave in batches, at most `burst` batches at once and then
 * one per `intervalMs` (a token bucket), so a producer that outruns its consumer pays the
 * per-batch work (a stream event, a message between threads) once per interval instead of
 * once per item. A slow stream is never delayed: an item that comes when the bucket has a
 * send left goes at once, alone.
 *
 * The source is read ahead while the caller works on a batch, so the producer never waits
 * for it. When the source ends or throws, what is held goes out first. If the caller stops
 * early, the source is stopped too (`return()`).
 */

export interface PaceOptions {
  /** The steady pace: one batch per interval once the burst is spent; 0 = no pacing (one batch per item). */
  intervalMs: number;
  /** Batches that may leave back to back after a pause (default 1). */
  burst?: number;
  /** Milliseconds, monotonic (default `performance.now`). */
  now?: () => number;
}

const SEND = Symbol('send');

/**
 * @example
 * for await (const chunks of pacedBatches(bodyChunks, { intervalMs: 8, burst: 8 })) port.postMessage(join(chunks));
 */
export async function* pacedBatches<T>(source: AsyncIterable<T>, options: PaceOptions): AsyncGenerator<T[]> {
  const iterator = source[Symbol.asyncIterator]();
  if (options.intervalMs <= 0) {
    yield* unpaced(iterator);
    return;
  }
  yield* paced(iterator, options);
}

/** One batch per item; like `paced`, stops the source when the caller stops early. */
async function* unpaced<T>(iterator: AsyncIterator<T>): AsyncGenerator<T[]> {
  let over = false;
  try {
    for (;;) {
      let next: IteratorResult<T>;
      try {
        next = await iterator.next();
      } catch (err) {
        over = true;
        throw err;
      }
      if (next.done) {
        over = true;
        return;
      }
      yield [next.value];
    }
  } finally {
    if (!over) iterator.return?.()?.catch(() => {});
  }
}

async function* paced<T>(iterator: AsyncIterator<T>, options: PaceOptions): AsyncGenerator<T[]> {
  const { intervalMs } = options;
  const burst = Math.max(1, options.burst ?? 1);
  const now = options.now ?? (() => performance.now());
  // The bucket: sends available, as of `refilledAt`.
  let sends = burst;
  let refilledAt = now();
  const refill = () => {
    const t = now();
    sends = Math.min(burst, sends + (t - refilledAt) / intervalMs);
    refilledAt = t;
  };

  let held: T[] = [];
  let pending: Promise<IteratorResult<T>> | null = null;
  /** Settles when the bucket has a send again; one timer per wait, however many items it holds. */
  let sendable: Promise<typeof SEND> | null = null;
  let over = false;
  try {
    for (;;) {
      pending ??= iterator.next();
      let next: IteratorResult<T> | typeof SEND;
      try {
        next = sendable ? await Promise.race([pending, sendable]) : await pending;
      } catch (err) {
        over = true;
        if (held.length > 0) yield held;
        throw err;
      }
      if (next === SEND) {
        sendable = null;
        refill();
        sends = Math.max(0, sends - 1);
        const batch = held;
        held = [];
        yield batch;
        continue;
      }
      pending = null;
      if (next.done) {
        over = true;
        if (held.length > 0) yield held;
        return;
      }
      held.push(next.value);
      if (sendable) continue;
      refill();
      if (sends >= 1) {
        sends -= 1;
        const batch = held;
        held = [];
        yield batch;
        continue;
      }
      const wait = ((1 - sends) * intervalMs);
      sendable = new Promise((resolve) => setTimeout(() => resolve(SEND), wait));
    }
  } finally {
    if (!over) {
      // The caller stopped early: stop the source too (a read in flight settles unobserved).
      pending?.catch(() => {});
      iterator.return?.()?.catch(() => {});
    }
  }
}
