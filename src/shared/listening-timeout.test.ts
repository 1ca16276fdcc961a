import { afterEach, expect, test, vi } from 'vitest';
import { listeningTimeout } from './listening-timeout';

afterEach(() => vi.useRealTimers());

test('on time: fires at the deadline', () => {
  vi.useFakeTimers();
  const fn = vi.fn();
  listeningTimeout(fn, 1000);
  vi.advanceTimersByTime(999);
  expect(fn).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(fn).toHaveBeenCalledOnce();
});

test('fired late (a busy event loop): waits as long again, once, so queued messages are read first', () => {
  vi.useFakeTimers();
  const fn = vi.fn();
  listeningTimeout(fn, 1000);
  // The event loop was blocked: the timer runs 500 ms late.
  vi.setSystemTime(Date.now() + 500);
  vi.advanceTimersByTime(1000);
  expect(fn).not.toHaveBeenCalled();
  vi.advanceTimersByTime(499);
  expect(fn).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(fn).toHaveBeenCalledOnce();
});

test('cleared: never fires, also after a late first turn', () => {
  vi.useFakeTimers();
  const fn = vi.fn();
  const early = listeningTimeout(fn, 1000);
  early.clear();
  const late = listeningTimeout(fn, 1000);
  vi.setSystemTime(Date.now() + 1500);
  vi.advanceTimersByTime(1000);
  late.clear();
  vi.advanceTimersByTime(5000);
  expect(fn).not.toHaveBeenCalled();
});
