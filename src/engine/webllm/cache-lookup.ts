/**
 * Whether a web-llm build is downloaded, read from web-llm's own storage without importing
 * web-llm: its script is 1.7 MB compressed, and listing the models (the model picker, on a
 * newcomer's first visit, often on a device that cannot run a GPU model at all) must not
 * download the GPU engine.
 *
 * The same decision as web-llm 0.2.86's `hasModelInCache(modelId, appConfig)`
 * (`cache_util.ts` → tvmjs `hasTensorInCache`):
 * - the record whose `model_id` is `modelId` (none: it throws, as web-llm's
 *   `ModelNotFoundError` does);
 * - its `model` URL made canonical as web-llm's `cleanModelUrl` does (a trailing `/`, then
 *   `resolve/main/` unless the URL has a `/resolve/<branch>/` part);
 * - in the scope `webllm/model` of the AppConfig's `cacheBackend` (Cache Storage by default,
 *   or IndexedDB): `tensor-cache.json` under that URL must be kept, and so must every file
 *   its `records` name (`dataPath`, resolved against the same URL).
 * `cache-lookup.test.ts` asks both on the same fake storage. web-llm's other backends (OPFS,
 * the cross-origin storage extension) are not read here: `undefined`, the caller asks web-llm.
 *
 * Nothing is created: a Cache Storage scope that does not exist is "not cached" (web-llm
 * would open an empty one and say the same); the IndexedDB database is opened as web-llm
 * opens it (version 1, its `urls` store made when new), so web-llm finds it as it expects.
 */
import type { AppConfig } from '@mlc-ai/web-llm';

/** web-llm's scope for weights and tokenizers (`CacheScope` in its `cache_util.ts`). */
export const WEBLLM_MODEL_SCOPE = 'webllm/model';

/** Where the lookup reads (default: this context's globals). */
export interface CacheLookupEnv {
  caches?: CacheStorage;
  indexedDB?: IDBFactory;
}

/** web-llm's `cleanModelUrl`: a trailing `/`, then `resolve/main/` when the URL names no branch. */
export function cleanModelUrl(modelUrl: string): string {
  let url = modelUrl.endsWith('/') ? modelUrl : `${modelUrl}/`;
  if (!/.+\/resolve\/.+\//.test(url)) url += 'resolve/main/';
  return new URL(url).href;
}

/** The backend web-llm reads for `appConfig` (its `getCacheBackend` + tvmjs `normalizeCacheType`). */
function backendOf(appConfig: AppConfig): 'cache' | 'indexeddb' | 'other' {
  const type = (appConfig.cacheBackend ?? 'cache').toLowerCase();
  if (type === 'indexeddb') return 'indexeddb';
  if (type === 'opfs' || type === 'cross-origin') return 'other';
  // web-llm logs an unknown name and uses Cache Storage.
  return 'cache';
}

/**
 * `hasModelInCache(modelId, appConfig)` of web-llm, without web-llm; `undefined` for a
 * backend this does not read (OPFS, cross-origin storage).
 */
export async function hasModelInCacheWithoutWebLlm(modelId: string, appConfig: AppConfig, env: CacheLookupEnv = {}): Promise<boolean | undefined> {
  const record = appConfig.model_list.find((r) => r.model_id === modelId);
  if (!record) throw new Error(`Cannot find model record in appConfig for ${modelId}.`);
  const modelUrl = cleanModelUrl(record.model);
  const jsonUrl = new URL('tensor-cache.json', modelUrl).href;
  const backend = backendOf(appConfig);
  if (backend === 'other') return undefined;
  const store = backend === 'cache' ? cacheStorageKeys(env.caches ?? globalThis.caches) : await indexedDbKeys(env.indexedDB ?? globalThis.indexedDB);
  try {
    if (!(await store.has(jsonUrl))) return false;
    const records = ((await store.json(jsonUrl)) as { records: { dataPath: string }[] }).records;
    const shards = records.map((r) => new URL(r.dataPath, modelUrl).href);
    for (const shard of shards) if (!(await store.has(shard))) return false;
    return true;
  } finally {
    store.close();
  }
}

/**
 * Whether web-llm keeps `modelId`'s weight manifest (`tensor-cache.json`), the file its
 * deletion reads first (see delete-build.ts); `undefined` for a backend this does not read.
 */
export async function hasManifestInCacheWithoutWebLlm(modelId: string, appConfig: AppConfig, env: CacheLookupEnv = {}): Promise<boolean | undefined> {
  const record = appConfig.model_list.find((r) => r.model_id === modelId);
  if (!record) throw new Error(`Cannot find model record in appConfig for ${modelId}.`);
  const backend = backendOf(appConfig);
  if (backend === 'other') return undefined;
  const store = backend === 'cache' ? cacheStorageKeys(env.caches ?? globalThis.caches) : await indexedDbKeys(env.indexedDB ?? globalThis.indexedDB);
  try {
    return await store.has(new URL('tensor-cache.json', cleanModelUrl(record.model)).href);
  } finally {
    store.close();
  }
}

/**
 * Deletes files of the `webllm/model` scope under `modelId`'s model URL (e.g. the tokenizer,
 * or `tensor-cache.json`, which web-llm's own deletion leaves behind), from Cache Storage,
 * without reading anything first. Other backends: nothing (the app uses Cache Storage).
 */
export async function deleteModelFilesWithoutWebLlm(modelId: string, appConfig: AppConfig, names: readonly string[], env: CacheLookupEnv = {}): Promise<void> {
  const record = appConfig.model_list.find((r) => r.model_id === modelId);
  if (!record || backendOf(appConfig) !== 'cache') return;
  const caches = env.caches ?? globalThis.caches;
  if (!(await caches.has(WEBLLM_MODEL_SCOPE))) return;
  const cache = await caches.open(WEBLLM_MODEL_SCOPE);
  const modelUrl = cleanModelUrl(record.model);
  for (const name of names) await cache.delete(new URL(name, modelUrl).href);
}

interface KeyedStore {
  has(url: string): Promise<boolean>;
  json(url: string): Promise<unknown>;
  close(): void;
}

/** The `webllm/model` cache's keys, listed once (as web-llm's `hasAllKeys` lists them). */
function cacheStorageKeys(caches: CacheStorage): KeyedStore {
  let opened: Promise<{ cache: Cache | null; keys: Set<string> }> | null = null;
  const open = () =>
    (opened ??= (async () => {
      if (!(await caches.has(WEBLLM_MODEL_SCOPE))) return { cache: null, keys: new Set<string>() };
      const cache = await caches.open(WEBLLM_MODEL_SCOPE);
      // web-llm counts a listing that fails as "not all there".
      const keys = await cache.keys().then((requests) => new Set(requests.map((r) => r.url)), () => new Set<string>());
      return { cache, keys };
    })());
  return {
    has: async (url) => (await open()).keys.has(url),
    async json(url) {
      const response = await (await open()).cache?.match(url);
      if (!response) throw new Error(`Cannot fetch ${url}`);
      return response.json();
    },
    close() {},
  };
}

/** web-llm's `ArtifactIndexedDBCache`: database `webllm/model`, store `urls` of `{ url, data }` rows. */
async function indexedDbKeys(factory: IDBFactory): Promise<KeyedStore> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open(WEBLLM_MODEL_SCOPE, 1);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains('urls')) request.result.createObjectStore('urls', { keyPath: 'url' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const row = (url: string) =>
    new Promise<{ data?: unknown } | undefined>((resolve, reject) => {
      const request = db.transaction(['urls'], 'readonly').objectStore('urls').get(url);
      request.onsuccess = () => resolve(request.result as { data?: unknown } | undefined);
      request.onerror = () => reject(request.error);
    });
  return {
    // web-llm counts a failed read as a missing key.
    has: (url) => row(url).then((r) => r !== undefined, () => false),
    async json(url) {
      const found = await row(url);
      if (found === undefined || typeof found !== 'object' || found === null || !('data' in found)) throw new Error(`ArtifactIndexedDBCache failed to fetch: ${url}`);
      return found.data;
    },
    close: () => db.close(),
  };
}
