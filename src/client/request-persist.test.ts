import { expect, test } from 'vitest';
import { requestPersist } from './request-persist';

test('a browser that decides at once (Chrome) is answered with its decision', async () => {
  expect(await requestPersist({ persist: async () => true })).toBe(true);
  expect(await requestPersist({ persist: async () => false })).toBe(false);
});

test('a browser that asks the person (Firefox) is not waited for: not persisted yet, after the wait', async () => {
  const started = Date.now();
  expect(await requestPersist({ persist: () => new Promise<boolean>(() => {}) }, 50)).toBe(false);
  expect(Date.now() - started).toBeLessThan(1_000);
});

test('no StorageManager, or one that fails: not persisted', async () => {
  expect(await requestPersist(undefined)).toBe(false);
  expect(await requestPersist({ persist: () => Promise.reject(new Error('denied')) })).toBe(false);
});
