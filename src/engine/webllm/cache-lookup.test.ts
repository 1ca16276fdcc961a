/**
 * Our reading of web-llm's cache against web-llm's own `hasModelInCache`, on the same fake
 * storage (Cache Storage, then IndexedDB): every state a download can leave behind, a
 * mirrored AppConfig, record URLs web-llm cleans, files of another build, broken metadata.
 */
import { hasModelInCache, type AppConfig, type ModelRecord } from '@mlc-ai/web-llm';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryCacheStorage } from '../../../test/fakes/memory-cache-storage';
import { MODEL_CATALOG, buildAppConfig } from './catalog';
import { WEBLLM_MODEL_SCOPE, cleanModelUrl, hasModelInCacheWithoutWebLlm } from './cache-lookup';

const mirrored = buildAppConfig(MODEL_CATALOG, { modelBase: 'https://mirror.example/m' });
const QWEN = 'Qwen3-1.7B-q4f16_1-MLC';
const QWEN_F32 = 'Qwen3-1.7B-q4f32_1-MLC';
const recordOf = (config: AppConfig, id: string) => config.model_list.find((r) => r.model_id === id)!;

/** Records whose `model` URL web-llm has to clean (no trailing slash; no `/resolve/` part; another branch). */
const odd: AppConfig = {
  model_list: [
    { ...recordOf(mirrored, QWEN), model_id: 'bare', model: 'https://hf.example/mlc-ai/Bare-MLC' },
    { ...recordOf(mirrored, QWEN), model_id: 'slash', model: 'https://hf.example/mlc-ai/Slash-MLC/' },
    { ...recordOf(mirrored, QWEN), model_id: 'branch', model: 'https://hf.example/mlc-ai/Branch-MLC/resolve/v2' },
  ] satisfies ModelRecord[],
};

const SHARDS = ['params_shard_0.bin', 'params_shard_1.bin', 'sub/params_shard_2.bin'];
const tensorCache = (paths: string[]) => ({ metadata: {}, records: paths.map((dataPath) => ({ dataPath, format: 'raw-shard', nbytes: 4, records: [] })) });

/** Files as a download leaves them: url → JSON value (tensor-cache.json) or bytes. */
type Files = Record<string, unknown>;

function filesOf(config: AppConfig, id: string, options: { json?: unknown; shards?: string[] } = {}): Files {
  const base = cleanModelUrl(recordOf(config, id).model);
  const files: Files = {};
  if (options.json !== null) files[new URL('tensor-cache.json', base).href] = options.json ?? tensorCache(SHARDS);
  for (const shard of options.shards ?? SHARDS) files[new URL(shard, base).href] = new Uint8Array([1, 2, 3, 4]);
  return files;
}

interface Backend {
  name: string;
  cacheBackend: AppConfig['cacheBackend'];
  /** Puts `files` where web-llm keeps them (undefined: nothing stored at all); sets the globals web-llm reads. */
  install(files: Files | undefined): Promise<void>;
}

const cacheStorage: Backend = {
  name: 'Cache Storage',
  cacheBackend: 'cache',
  async install(files) {
    const storage = new MemoryCacheStorage();
    vi.stubGlobal('caches', storage.asCacheStorage());
    if (!files) return;
    const cache = await storage.open(WEBLLM_MODEL_SCOPE);
    for (const [url, value] of Object.entries(files)) {
      const body = value instanceof Uint8Array ? new Uint8Array(value) : typeof value === 'string' ? value : JSON.stringify(value);
      await cache.put(url, new Response(body));
    }
  },
};

const indexedDb: Backend = {
  name: 'IndexedDB',
  cacheBackend: 'indexeddb',
  async install(files) {
    const factory = new IDBFactory();
    vi.stubGlobal('indexedDB', factory);
    if (!files) return;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(WEBLLM_MODEL_SCOPE, 1);
      request.onupgradeneeded = () => request.result.createObjectStore('urls', { keyPath: 'url' });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const tx = db.transaction(['urls'], 'readwrite');
    // As web-llm stores them: tensor-cache.json parsed ("json"), shards as ArrayBuffers.
    for (const [url, data] of Object.entries(files)) tx.objectStore('urls').put({ url, data: data instanceof Uint8Array ? data.buffer : data });
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  },
};

/** Both answers for one state: true/false, or 'throws'. */
async function both(config: AppConfig, id: string): Promise<{ webllm: boolean | 'throws'; ours: boolean | undefined | 'throws' }> {
  const settle = <T,>(p: Promise<T>) => p.catch(() => 'throws' as const);
  return { webllm: await settle(hasModelInCache(id, config)), ours: await settle(hasModelInCacheWithoutWebLlm(id, config)) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe.each([cacheStorage, indexedDb])('hasModelInCacheWithoutWebLlm agrees with web-llm’s hasModelInCache: $name', (backend) => {
  const config = { ...mirrored, cacheBackend: backend.cacheBackend };
  const oddConfig = { ...odd, cacheBackend: backend.cacheBackend };
  const cases: Array<[string, Files | undefined, AppConfig, string, boolean | 'throws']> = [
    ['nothing stored', undefined, config, QWEN, false],
    ['an empty store', {}, config, QWEN, false],
    ['every file of the build', filesOf(config, QWEN), config, QWEN, true],
    ['a shard missing (a download cut off)', filesOf(config, QWEN, { shards: SHARDS.slice(0, 2) }), config, QWEN, false],
    ['the shards without tensor-cache.json', filesOf(config, QWEN, { json: null }), config, QWEN, false],
    ['a build with no shards at all', filesOf(config, QWEN, { json: tensorCache([]), shards: [] }), config, QWEN, true],
    ['the other build (q4f32) only', filesOf(config, QWEN_F32), config, QWEN, false],
    ['the other build (q4f32), asked for itself', filesOf(config, QWEN_F32), config, QWEN_F32, true],
    ['tensor-cache.json without records', filesOf(config, QWEN, { json: { metadata: {} } }), config, QWEN, 'throws'],
    ['a model id the AppConfig does not have', filesOf(config, QWEN), config, 'nope', 'throws'],
    ['a URL without a trailing slash or resolve/', filesOf(oddConfig, 'bare'), oddConfig, 'bare', true],
    ['a URL without resolve/', filesOf(oddConfig, 'slash'), oddConfig, 'slash', true],
    ['a URL on another branch', filesOf(oddConfig, 'branch'), oddConfig, 'branch', true],
    ['files under the URL before web-llm cleans it', { [`${odd.model_list[0]!.model}/tensor-cache.json`]: tensorCache([]) }, oddConfig, 'bare', false],
  ];
  it.each(cases)('%s', async (_name, files, appConfig, id, expected) => {
    await backend.install(files);
    expect(await both(appConfig, id)).toEqual({ webllm: expected, ours: expected });
  });

  if (backend === cacheStorage) {
    it('an unreadable tensor-cache.json: both throw', async () => {
      await backend.install({ ...filesOf(config, QWEN), [new URL('tensor-cache.json', cleanModelUrl(recordOf(config, QWEN).model)).href]: 'not json' });
      expect(await both(config, QWEN)).toEqual({ webllm: 'throws', ours: 'throws' });
    });

    it('creates no cache where there was none (web-llm would open an empty one)', async () => {
      const storage = new MemoryCacheStorage();
      expect(await hasModelInCacheWithoutWebLlm(QWEN, config, { caches: storage.asCacheStorage() })).toBe(false);
      expect(await storage.keys()).toEqual([]);
    });
  }
});

describe('backends web-llm reads itself', () => {
  it('OPFS and the cross-origin storage extension: undefined (the caller asks web-llm)', async () => {
    expect(await hasModelInCacheWithoutWebLlm(QWEN, { ...mirrored, cacheBackend: 'opfs' })).toBeUndefined();
    expect(await hasModelInCacheWithoutWebLlm(QWEN, { ...mirrored, cacheBackend: 'cross-origin' })).toBeUndefined();
  });
});
