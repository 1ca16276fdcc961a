import { describe, expect, test } from 'vitest';
import { describeLoad, describeProgress, formatBytes, formatDuration, secondsLeft } from './format';

describe('formatBytes / formatDuration', () => {
  test('readable units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.54 kB');
    expect(formatBytes(350_000_000)).toBe('350 MB');
    expect(formatBytes(200 * 1024 * 1024)).toBe('210 MB');
    expect(formatBytes(1.25e9)).toBe('1.25 GB');
    // Never "1000 kB": that is 1.00 MB.
    expect(formatBytes(999_999)).toBe('1.00 MB');
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(150)).toBe('3 min');
    expect(formatDuration(3900)).toBe('1 h 5 min');
  });
});

describe('download progress', () => {
  test('time left from the average byte rate since the first sample', () => {
    const first = { at: 0, progress: 0, loadedBytes: 0, totalBytes: 1000 };
    const latest = { at: 10_000, progress: 0.25, loadedBytes: 250, totalBytes: 1000 };
    expect(secondsLeft(first, latest)).toBe(30);
    expect(describeProgress(first, latest)).toBe('250 B of 1.00 kB · 25% · about 30 s left');
  });

  test('without bytes, from the progress fraction; nothing about time before there is movement', () => {
    const first = { at: 0, progress: 0.5 };
    expect(secondsLeft(first, { at: 200, progress: 0.6 })).toBeNull();
    expect(secondsLeft(first, { at: 10_000, progress: 0.5 })).toBeNull();
    expect(secondsLeft(first, { at: 10_000, progress: 0.75 })).toBe(10);
    expect(describeProgress(first, { at: 10_000, progress: 0.75 })).toBe('75% · about 10 s left');
  });
});

describe('a model load on the progress card', () => {
  const first = { at: 0, progress: 0, loadedBytes: 0, totalBytes: 397_000_000 };

  test('downloads read in the catalog units: 397 MB stays 397 MB, one unit system on the line', () => {
    const latest = { at: 10_000, progress: 0.5, loadedBytes: 198_500_000, totalBytes: 397_000_000 };
    const view = describeLoad('download', first, latest);
    expect(view.text).toBe('Downloading · 199 MB of 397 MB · 50% · about 10 s left');
    expect(view.value).toBe(0.5);
    expect(view.text).not.toMatch(/KB|MiB/);
  });

  test('a finished download reads 100% while the model is prepared, never 0%', () => {
    const latest = { at: 10_000, progress: 0, loadedBytes: 397_000_000, totalBytes: 397_000_000 };
    const view = describeLoad('compile', first, latest);
    expect(view.text).toBe('Downloaded 397 MB · 100% · preparing the model on this device…');
    expect(view.value).toBe(1);
    expect(describeLoad('ready', first, latest)).toEqual({ value: 1, text: 'Downloaded · 100% · ready' });
  });

  test('before any bytes are known only the percent shows', () => {
    expect(describeLoad('download', { at: 0, progress: 0 }, { at: 100, progress: 0 }).text).toBe('Downloading · 0%');
  });
});
