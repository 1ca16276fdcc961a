import { expect, test } from 'vitest';
import { noWebGpuReason } from './no-webgpu-reason';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0';
const FIREFOX_WINDOWS_OLD = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

test('Firefox on Linux: not yet there, so the CPU models here or another browser for the GPU ones', () => {
  const reason = noWebGpuReason(FIREFOX_LINUX);
  expect(reason).toMatch(/^Firefox on Linux does not provide WebGPU yet/);
  expect(reason).toContain('The CPU models work here');
  expect(reason).toContain('Chrome or Edge');
});

test('an older Firefox on Windows is told to update', () => {
  expect(noWebGpuReason(FIREFOX_WINDOWS_OLD)).toMatch(/update Firefox/);
});

test('any other browser keeps the general advice', () => {
  expect(noWebGpuReason(CHROME)).toMatch(/navigator\.gpu is missing/);
  expect(noWebGpuReason()).toMatch(/navigator\.gpu is missing/);
});
