import { expect, test } from 'vitest';
import { oneAtATime } from './one-at-a-time';

test('tasks run one at a time, in order, and a failure does not stop the next', async () => {
  const serial = oneAtATime();
  const seen: string[] = [];
  let running = 0;
  const task = (name: string, fail = false) => async () => {
    running++;
    expect(running).toBe(1);
    seen.push(`start ${name}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    seen.push(`end ${name}`);
    running--;
    if (fail) throw new Error(name);
    return name;
  };
  const results = await Promise.allSettled([serial(task('a')), serial(task('b', true)), serial(task('c'))]);
  expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['a', 'b', 'c']);
  expect(seen).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
});
