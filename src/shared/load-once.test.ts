import { expect, test } from 'vitest';
import { loadOnce } from './load-once';

test('one load for every caller; a failed load is tried again by the next caller', async () => {
  let calls = 0;
  let fail = true;
  const get = loadOnce(async () => {
    calls++;
    if (fail) throw new Error('offline');
    return 'model';
  });
  await expect(Promise.all([get(), get()])).rejects.toThrow('offline');
  expect(calls).toBe(1);
  fail = false;
  expect(await Promise.all([get(), get()])).toEqual(['model', 'model']);
  expect(calls).toBe(2);
  await get();
  expect(calls).toBe(2);
});
