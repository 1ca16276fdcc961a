import { describe, expect, it } from 'vitest';
import type { LoadProgress } from '../../protocol/local-status';
import { FakeWllama, FakeWllamaCache } from '../../../test/fakes/fake-wllama';
import { GGUF_CATALOG, GGUF_TEST_CATALOG, TINY_LLAMA_MODEL_ID } from './gguf-catalog';
import { WllamaEngine } from './engine';
import { WllamaModels } from './models';

const QWEN = 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF';
const QWEN_FILE = 'Qwen2.5-0.5B-Instruct-Q4_K_M.gguf';
const MIRROR = 'https://mirror.example/gguf';

function setup(cache = new FakeWllamaCache()) {
  const engine = new WllamaEngine({
    catalog: [...GGUF_CATALOG, ...GGUF_TEST_CATALOG],
    modelBase: MIRROR,
    wasmUrl: 'https://app.example/assets/wllama.wasm',
    cache,
    createWllama: () => new FakeWllama({ cache, progress: [{ loaded: 500, total: 1000 }, { loaded: 1000, total: 1000 }] }),
  });
  return { engine, cache, models: new WllamaModels(engine) };
}

const signal = () => new AbortController().signal;

describe('WllamaModels', () => {
  it('lists every GGUF model with its file; cached only when the whole file is there under the URL it loads from', async () => {
    const cache = new FakeWllamaCache()
      .put(`${MIRROR}/${QWEN_FILE}`, 1000)
      // Cut off part-way: not downloaded.
      .put(`${MIRROR}/test-tiny-llama.gguf`, 1000, 400)
      // The same file from another mirror: not what this engine would load.
      .put('https://other.example/Llama-3.2-1B-Instruct-Q4_K_M.gguf', 1000);
    const { models } = setup(cache);
    const list = await models.models();
    expect(list).toHaveLength(GGUF_CATALOG.length + GGUF_TEST_CATALOG.length);
    expect(list.find((m) => m.id === QWEN)).toEqual({ id: QWEN, variant: QWEN_FILE, cached: true, cachedVariants: [QWEN_FILE], loaded: false });
    expect(list.find((m) => m.id === TINY_LLAMA_MODEL_ID)).toMatchObject({ cached: false, cachedVariants: [] });
    expect(list.find((m) => m.id === 'Llama-3.2-1B-Instruct-Q4_K_M-GGUF')?.cached).toBe(false);
    expect(models.has(QWEN)).toBe(true);
    expect(models.has('Qwen3-0.6B-q4f16_1-MLC')).toBe(false);
  });

  it('load: reports that model\'s progress and leaves it downloaded and loaded', async () => {
    const { models } = setup();
    const seen: LoadProgress[] = [];
    await models.load(QWEN, (p) => seen.push(p), signal());
    expect(seen.map((p) => [p.phase, p.progress])).toEqual([
      ['download', 0],
      ['download', 0.5],
      ['compile', 0],
      ['ready', 1],
    ]);
    expect(seen.every((p) => p.model === QWEN)).toBe(true);
    expect(models.loaded()).toBe(QWEN);
    expect(models.loading()).toBeNull();
    expect((await models.models()).find((m) => m.id === QWEN)).toMatchObject({ cached: true, loaded: true });
  });

  it('shows the load under way', async () => {
    const { models } = setup();
    const seen: LoadProgress[] = [];
    const loading = models.load(QWEN, (p) => {
      seen.push(p);
      if (p.phase === 'download' && p.progress === 0.5) expect(models.loading()).toMatchObject({ model: QWEN, phase: 'download', progress: 0.5 });
    }, signal());
    await loading;
    expect(seen.some((p) => p.progress === 0.5)).toBe(true);
  });

  it('deleteCached unloads the model and deletes its file, so it shows as not downloaded', async () => {
    const { models, cache, engine } = setup();
    await models.load(QWEN, () => {}, signal());
    await models.deleteCached(QWEN);
    expect(engine.loadedModel()).toBeNull();
    expect(cache.deleted).toEqual([`${MIRROR}/${QWEN_FILE}`]);
    expect((await models.models()).find((m) => m.id === QWEN)).toMatchObject({ cached: false, loaded: false });
  });

  it('a model outside the catalog is 404 model_not_found', async () => {
    const { models } = setup();
    await expect(models.load('gpt-4o', () => {}, signal())).rejects.toMatchObject({ data: { status: 404, code: 'model_not_found' } });
    await expect(models.deleteCached('gpt-4o')).rejects.toMatchObject({ data: { status: 404, code: 'model_not_found' } });
  });
});
