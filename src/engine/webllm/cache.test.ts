import type { AppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/api-error';
import { ModelCache, type StorageLike, type WebLlmCacheApi } from './cache';
import { MODEL_CATALOG, buildAppConfig, findCatalogEntry } from './catalog';

const appConfig = buildAppConfig(MODEL_CATALOG, { modelBase: 'https://mirror.example/m' });
const qwen = findCatalogEntry(MODEL_CATALOG, 'Qwen3-1.7B-q4f16_1-MLC')!;

function fakeWebLlm(cached: string[]) {
  const present = new Set(cached);
  const seen: AppConfig[] = [];
  const api: WebLlmCacheApi = {
    hasModelInCache: vi.fn(async (id: string, config?: AppConfig) => {
      if (config) seen.push(config);
      return present.has(id);
    }),
    deleteBuild: vi.fn(async (id: string) => {
      present.delete(id);
    }),
  };
  return { api, seen, present };
}

function fakeStorage(usage: number, quota: number, persisted = false) {
  const storage = {
    estimate: vi.fn(async () => ({ usage, quota })),
    persisted: vi.fn(async () => persisted),
    persist: vi.fn(async () => true),
  } satisfies StorageLike;
  return storage;
}

describe('ModelCache', () => {
  it("lists which builds are cached, asking web-llm with the engine's AppConfig", async () => {
    const { api, seen } = fakeWebLlm(['Qwen3-1.7B-q4f32_1-MLC']);
    const cache = new ModelCache({ catalog: MODEL_CATALOG, appConfig, webllm: api, storage: null });
    const list = await cache.list();
    expect(list.find((m) => m.id === qwen.id)?.cachedVariants).toEqual(['Qwen3-1.7B-q4f32_1-MLC']);
    expect(list.find((m) => m.id === 'gemma-2-2b-it-q4f16_1-MLC')?.cachedVariants).toEqual([]);
    expect(seen.every((c) => c === appConfig)).toBe(true);
  });

  it('counts a failing cache lookup as not cached', async () => {
    const api: WebLlmCacheApi = { hasModelInCache: async () => Promise.reject(new ReferenceError('caches is not defined')), deleteBuild: async () => {} };
    expect(await new ModelCache({ catalog: MODEL_CATALOG, appConfig, webllm: api, storage: null }).isCached('x')).toBe(false);
  });

  it('deletes both builds of a model; an unknown id is model_not_found', async () => {
    const { api, present } = fakeWebLlm(['Qwen3-1.7B-q4f16_1-MLC', 'Qwen3-1.7B-q4f32_1-MLC', 'Qwen3-4B-q4f16_1-MLC']);
    const cache = new ModelCache({ catalog: MODEL_CATALOG, appConfig, webllm: api, storage: null });
    await cache.delete(qwen.id);
    expect([...present]).toEqual(['Qwen3-4B-q4f16_1-MLC']);
    expect(api.deleteBuild).toHaveBeenCalledWith('Qwen3-1.7B-q4f16_1-MLC', appConfig);
    await expect(cache.delete('nope')).rejects.toMatchObject({ data: { status: 404, code: 'model_not_found' } });
  });

  it('deletes the other build when one fails, then reports the failure', async () => {
    const { api, present } = fakeWebLlm(['Qwen3-1.7B-q4f32_1-MLC']);
    const failing: WebLlmCacheApi = { ...api, deleteBuild: vi.fn(async (id: string, config: AppConfig) => (id.includes('q4f16') ? Promise.reject(new TypeError('Failed to fetch')) : api.deleteBuild(id, config))) };
    const cache = new ModelCache({ catalog: MODEL_CATALOG, appConfig, webllm: failing, storage: null });
    await expect(cache.delete(qwen.id)).rejects.toThrow('Failed to fetch');
    expect([...present]).toEqual([]);
  });

  it('estimates storage', async () => {
    const cache = new ModelCache({ catalog: MODEL_CATALOG, appConfig, webllm: fakeWebLlm([]).api, storage: fakeStorage(1e9, 5e9, true) });
    expect(await cache.estimate()).toEqual({ usageBytes: 1e9, quotaBytes: 5e9, freeBytes: 4e9, persisted: true });
    expect(await new ModelCache({ catalog: MODEL_CATALOG, appConfig, webllm: fakeWebLlm([]).api, storage: null }).estimate()).toBeNull();
  });

  it('asks for persistent storage before a download, unless already persisted', async () => {
    const storage = fakeStorage(0, 10e9);
    const cache = new ModelCache({ catalog: MODEL_CATALOG, appConfig, webllm: fakeWebLlm([]).api, storage });
    expect(await cache.prepareDownload(qwen.id, qwen.variants.q4f16)).toEqual({ persisted: true });
    expect(storage.persist).toHaveBeenCalledTimes(1);

    const already = fakeStorage(0, 10e9, true);
    await new ModelCache({ catalog: MODEL_CATALOG, appConfig, webllm: fakeWebLlm([]).api, storage: already }).prepareDownload(qwen.id, qwen.variants.q4f16);
    expect(already.persist).not.toHaveBeenCalled();
  });

  it('uses an injected persist request (workers have no persist())', async () => {
    const requestPersist = vi.fn(async () => false);
    const storage: StorageLike = { estimate: async () => ({ usage: 0, quota: 10e9 }) };
    const cache = new ModelCache({ catalog: MODEL_CATALOG, appConfig, webllm: fakeWebLlm([]).api, storage, requestPersist });
    expect(await cache.prepareDownload(qwen.id, qwen.variants.q4f16)).toEqual({ persisted: false });
    expect(requestPersist).toHaveBeenCalled();
  });

  it('fails with quota_exceeded before downloading when the model does not fit', async () => {
    const cache = new ModelCache({ catalog: MODEL_CATALOG, appConfig, webllm: fakeWebLlm([]).api, storage: fakeStorage(9.5e9, 10e9) });
    const err = await cache.prepareDownload(qwen.id, qwen.variants.q4f16).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).data.code).toBe('quota_exceeded');
    expect((err as ApiError).message).toContain('only 500 MB more');
  });
});
