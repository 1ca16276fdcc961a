import { expect, test } from 'vitest';
import { cpuThreads } from './cpu-threads';

test('all cores by default when isolated (wllama would take half: one thread on two cores)', () => {
  expect(cpuThreads({ isolated: true, cores: 2 })).toBe(2);
  expect(cpuThreads({ isolated: true, cores: 8 })).toBe(8);
});

test('the runtime option overrides the core count', () => {
  expect(cpuThreads({ isolated: true, cores: 8, requested: 3 })).toBe(3);
  expect(cpuThreads({ isolated: true, cores: 2, requested: 1 })).toBe(1);
});

test('one thread without isolation, whatever was asked for', () => {
  expect(cpuThreads({ isolated: false, cores: 8 })).toBe(1);
  expect(cpuThreads({ isolated: false, cores: 8, requested: 4 })).toBe(1);
});

test('no usable core count means one thread', () => {
  expect(cpuThreads({ isolated: true, cores: undefined })).toBe(1);
  expect(cpuThreads({ isolated: true, cores: 0 })).toBe(1);
});
