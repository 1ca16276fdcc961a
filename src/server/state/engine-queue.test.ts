import { expect, test } from 'vitest';
import { EngineQueue } from './engine-queue';

const never = new AbortController().signal;

test('places are served first in, first out, with several waiting', async () => {
  const queue = new EngineQueue();
  const order: number[] = [];
  const places = [0, 1, 2, 3, 4].map(() => queue.reserve());
  expect(places.map((p) => p.first)).toEqual([true, false, false, false, false]);
  // Taken in reverse order: the turn still follows the order of reservation.
  const runs = places
    .map((place, i) => ({ place, i }))
    .reverse()
    .map(async ({ place, i }) => {
      const release = await place.take(never);
      order.push(i);
      await new Promise((r) => setTimeout(r, 1));
      release();
    });
  await Promise.all(runs);
  expect(order).toEqual([0, 1, 2, 3, 4]);
  expect(queue.idle).toBe(true);
});

test('a place that leaves (before or after its grant) does not block the line', async () => {
  const queue = new EngineQueue();
  const a = queue.reserve();
  const b = queue.reserve();
  const c = queue.reserve();
  b.leave();
  a.leave(); // granted at once, left without running
  const release = await c.take(never);
  release();
  expect(queue.idle).toBe(true);
});

test('aborting a waiting take leaves the line and rejects with an AbortError', async () => {
  const queue = new EngineQueue();
  const first = await queue.acquire(never);
  const controller = new AbortController();
  const waiting = queue.reserve().take(controller.signal);
  const after = queue.reserve();
  controller.abort();
  await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  first();
  const release = await after.take(never);
  release();
  expect(queue.idle).toBe(true);
});

test('a line with concurrency n runs n places at once; the next waits for a release', async () => {
  const queue = new EngineQueue(2);
  const [a, b, c] = [queue.reserve(), queue.reserve(), queue.reserve()];
  expect([a.first, b.first, c.first]).toEqual([true, true, false]);
  const releaseA = await a.take(never);
  const releaseB = await b.take(never);
  let cRan = false;
  const cTaken = c.take(never).then((release) => {
    cRan = true;
    return release;
  });
  await new Promise((r) => setTimeout(r, 5));
  expect(cRan).toBe(false);
  releaseB();
  (await cTaken)();
  releaseA();
  expect(queue.idle).toBe(true);
});
