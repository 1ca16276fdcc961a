import { describe, expect, it } from 'vitest';
import { toLoadProgress } from './load-progress';

const MODEL = 'Qwen3-0.6B-q4f16_1-MLC';

describe('toLoadProgress', () => {
  it("maps web-llm's report texts to phases, bytes from the text", () => {
    expect(toLoadProgress(MODEL, { progress: 0, timeElapsed: 0, text: 'Start to fetch params' })).toMatchObject({ phase: 'download', progress: 0 });
    const fetching = toLoadProgress(MODEL, {
      progress: 0.25,
      timeElapsed: 3,
      text: 'Fetching param cache[5/20]: 100MB fetched. 25% completed, 3 secs elapsed. It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.',
    });
    expect(fetching).toMatchObject({ model: MODEL, phase: 'download', progress: 0.25, loadedBytes: 100 * 1024 * 1024, totalBytes: 400 * 1024 * 1024 });
    expect(toLoadProgress(MODEL, { progress: 0.5, timeElapsed: 4, text: 'Loading model from cache[10/20]: 200MB loaded. 50% completed, 4 secs elapsed.' })).toMatchObject({
      phase: 'compile',
      progress: 0.25,
    });
    expect(toLoadProgress(MODEL, { progress: 0.5, timeElapsed: 5, text: 'Loading GPU shader modules[40/80]: 50% completed, 5 secs elapsed.' })).toMatchObject({
      phase: 'compile',
      progress: 0.75,
    });
    const done = toLoadProgress(MODEL, { progress: 1, timeElapsed: 6, text: 'Finish loading on WebGPU - nvidia' });
    expect(done).toEqual({ model: MODEL, phase: 'ready', progress: 1, text: 'Finish loading on WebGPU - nvidia' });
    expect(done.loadedBytes).toBeUndefined();
  });

  it('keeps the previous phase for a text it does not know', () => {
    const previous = toLoadProgress(MODEL, { progress: 0.5, timeElapsed: 5, text: 'Loading GPU shader modules[40/80]: 50% completed' });
    expect(toLoadProgress(MODEL, { progress: 0.1, timeElapsed: 5, text: 'something new' }, previous)).toMatchObject({ phase: 'compile', progress: 0.75, text: 'something new' });
  });
});
