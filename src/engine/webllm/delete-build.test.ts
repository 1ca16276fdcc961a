/**
 * Deleting a model's builds with web-llm's own cache code (`@mlc-ai/web-llm` 0.2.86, not a
 * fake) on an in-memory Cache Storage, the network stubbed: a device downloads one build of
 * a model, and deleting the model must remove it without fetching anything for the other.
 */
import { deleteModelAllInfoInCache, type AppConfig } from '@mlc-ai/web-llm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryCacheStorage } from '../../../test/fakes/memory-cache-storage';
import { ModelCache } from './cache';
import { cleanModelUrl } from './cache-lookup';
import { MODEL_CATALOG, buildAppConfig, findCatalogEntry } from './catalog';

const appConfig = buildAppConfig(MODEL_CATALOG, { modelBase: 'https://mirror.example/m' });
const entry = findCatalogEntry(MODEL_CATALOG, 'Qwen3-1.7B-q4f16_1-MLC')!;
const F16 = entry.variants.q4f16.modelId;
const F32 = entry.variants.q4f32.modelId;
const recordOf = (id: string) => appConfig.model_list.find((r) => r.model_id === id)!;

let storage: MemoryCacheStorage;
let fetched: string[];

/** What a complete download of `id` leaves in web-llm's three caches. */
async function download(id: string): Promise<void> {
  const base = cleanModelUrl(recordOf(id).model);
  const model = await storage.open('webllm/model');
  const manifest = { metadata: {}, records: [{ dataPath: 'params_shard_0.bin', format: 'raw-shard', nbytes: 4, records: [] }] };
  await model.put(new URL('tensor-cache.json', base).href, new Response(JSON.stringify(manifest)));
  await model.put(new URL('params_shard_0.bin', base).href, new Response(new Uint8Array([1, 2, 3, 4])));
  await model.put(new URL('tokenizer.json', base).href, new Response('{}'));
  await (await storage.open('webllm/config')).put(new URL('mlc-chat-config.json', base).href, new Response('{}'));
  await (await storage.open('webllm/wasm')).put(recordOf(id).model_lib, new Response(new Uint8Array([0])));
}

async function cachedUrls(): Promise<string[]> {
  const urls: string[] = [];
  for (const name of await storage.keys()) for (const request of await (await storage.open(name)).keys()) urls.push(request.url);
  return urls.sort();
}

beforeEach(() => {
  storage = new MemoryCacheStorage();
  fetched = [];
  vi.stubGlobal('caches', storage.asCacheStorage());
  // Offline: every request fails as a browser's does.
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      fetched.push(String(input instanceof Request ? input.url : input));
      throw new TypeError('Failed to fetch');
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('deleting a model whose other build was never downloaded', () => {
  it("web-llm's deleteModelAllInfoInCache fetches the missing build's tensor-cache.json (offline: it fails)", async () => {
    await download(F32);
    await expect(deleteModelAllInfoInCache(F16, appConfig as AppConfig)).rejects.toThrow();
    expect(fetched).toEqual([new URL('tensor-cache.json', cleanModelUrl(recordOf(F16).model)).href]);
  });

  it('ModelCache.delete removes the downloaded build and fetches nothing', async () => {
    await download(F32);
    await new ModelCache({ catalog: MODEL_CATALOG, appConfig, storage: null }).delete(entry.id);
    expect(fetched).toEqual([]);
    expect(await cachedUrls()).toEqual([]);
  });

  it('also removes what a download that stopped before the weights left (config, library, tokenizer)', async () => {
    await download(F16);
    const model = await storage.open('webllm/model');
    const base = cleanModelUrl(recordOf(F16).model);
    await model.delete(new URL('tensor-cache.json', base).href);
    await model.delete(new URL('params_shard_0.bin', base).href);
    await new ModelCache({ catalog: MODEL_CATALOG, appConfig, storage: null }).delete(entry.id);
    expect(fetched).toEqual([]);
    expect(await cachedUrls()).toEqual([]);
  });

  it('leaves the other models alone', async () => {
    await download(F32);
    const other = findCatalogEntry(MODEL_CATALOG, 'Qwen3-4B-q4f16_1-MLC')!.variants.q4f32.modelId;
    await download(other);
    await new ModelCache({ catalog: MODEL_CATALOG, appConfig, storage: null }).delete(entry.id);
    const left = await cachedUrls();
    expect(left.length).toBe(5);
    expect(left.every((url) => url.includes('Qwen3-4B'))).toBe(true);
  });
});
