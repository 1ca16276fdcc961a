import { expect, test } from 'vitest';
import { sleep } from '../shared/abort';
import { LoadQueue } from './load-queue';

test('loads and unloads run one at a time, in order; busy while a load is queued', async () => {
  const queue = new LoadQueue();
  const log: string[] = [];
  const step = (name: string) => async () => {
    log.push(`${name} start`);
    await sleep(5);
    log.push(`${name} end`);
  };
  const a = queue.load(step('a'), new AbortController().signal);
  const u = queue.after(step('unload'));
  const b = queue.load(step('b'), new AbortController().signal);
  expect(queue.busy).toBe(true);
  await Promise.all([a, u, b]);
  expect(log).toEqual(['a start', 'a end', 'unload start', 'unload end', 'b start', 'b end']);
  expect(queue.busy).toBe(false);
});

test('an aborted wait rejects at once, the queued load still settles before the next', async () => {
  const queue = new LoadQueue();
  const log: string[] = [];
  const controller = new AbortController();
  const first = queue.load(async () => {
    await sleep(20);
    log.push('first done');
  }, controller.signal);
  controller.abort(new Error('stop'));
  await expect(first).rejects.toThrow('stop');
  expect(log).toEqual([]);
  await queue.load(async () => void log.push('second'), new AbortController().signal);
  expect(log).toEqual(['first done', 'second']);
});
