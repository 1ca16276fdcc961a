/**
 * Which catalog models are downloaded, deleting one, and the origin's storage: web-llm
 * keeps weights, tokenizer, config and model library in Cache Storage (`webllm/model`,
 * `webllm/config`, `webllm/wasm`), keyed by the URLs of the AppConfig records, so every
 * call takes the same AppConfig the engine loads with (a mirror changes the keys). Whether
 * a build is downloaded is read from there directly (cache-lookup.ts), as web-llm decides it.
 *
 * Persistence: `navigator.storage.persist()` exists only in a window (not in workers,
 * where the runtime lives), so it is injectable: the runtime passes a function that asks
 * the page. Without one, downloads go ahead unpersisted (evictable under storage pressure).
 */
import type { AppConfig } from '@mlc-ai/web-llm';
import { modelNotFound, quotaExceeded } from '../engine-errors';
import type { StorageInfo } from '../device-status';
import { findCatalogEntry, type CatalogEntry, type ModelVariant } from './catalog';
import { deleteModelFilesWithoutWebLlm, hasManifestInCacheWithoutWebLlm, hasModelInCacheWithoutWebLlm } from './cache-lookup';
import { deleteWebLlmBuild } from './delete-build';

/** The part of web-llm's cache API used here (a fake in tests). */
export interface WebLlmCacheApi {
  hasModelInCache(modelId: string, appConfig?: AppConfig): Promise<boolean>;
  /** Deletes every cached file of one build, downloading nothing (delete-build.ts). */
  deleteBuild(modelId: string, appConfig: AppConfig): Promise<void>;
}

/** `navigator.storage`, as far as it is used here. */
export interface StorageLike {
  estimate(): Promise<{ usage?: number; quota?: number }>;
  persisted?(): Promise<boolean>;
  persist?(): Promise<boolean>;
}

export interface CachedModelStatus {
  id: string;
  /** web-llm ids of the builds that are fully downloaded (weights present). */
  cachedVariants: string[];
}

export interface ModelCacheOptions {
  catalog: readonly CatalogEntry[];
  appConfig: AppConfig;
  webllm?: WebLlmCacheApi;
  /** Default: `navigator.storage`; null when there is none. */
  storage?: StorageLike | null;
  /** Asks for persistent storage (default: `storage.persist()` when this context has it). */
  requestPersist?: () => Promise<boolean>;
}

function defaultStorage(): StorageLike | null {
  const nav = (globalThis as { navigator?: { storage?: StorageLike } }).navigator;
  return nav?.storage ?? null;
}

export class ModelCache {
  private readonly catalog: readonly CatalogEntry[];
  private readonly appConfig: AppConfig;
  private readonly webllm: WebLlmCacheApi;
  private readonly storage: StorageLike | null;
  private readonly requestPersist: (() => Promise<boolean>) | null;

  constructor(options: ModelCacheOptions) {
    this.catalog = options.catalog;
    this.appConfig = options.appConfig;
    // web-llm is imported when first needed, not with the runtime (see prebuilt-records.ts);
    // whether a build is cached is read without it (cache-lookup.ts), so listing the models
    // never downloads the GPU engine. Deleting imports it.
    this.webllm = options.webllm ?? {
      hasModelInCache: async (modelId, config = this.appConfig) =>
        (await hasModelInCacheWithoutWebLlm(modelId, config)) ?? (await import('@mlc-ai/web-llm')).hasModelInCache(modelId, config),
      deleteBuild: async (modelId, config) =>
        deleteWebLlmBuild(modelId, config, await import('@mlc-ai/web-llm'), {
          manifestCached: await hasManifestInCacheWithoutWebLlm(modelId, config).catch(() => undefined),
          deleteFiles: (names) => deleteModelFilesWithoutWebLlm(modelId, config, names),
        }),
    };
    this.storage = options.storage === undefined ? defaultStorage() : options.storage;
    const storage = this.storage;
    this.requestPersist = options.requestPersist ?? (storage?.persist ? () => storage.persist!() : null);
  }

  /** Whether the weights of one build (web-llm id) are all in the cache. */
  async isCached(variantId: string): Promise<boolean> {
    try {
      return await this.webllm.hasModelInCache(variantId, this.appConfig);
    } catch {
      return false; // no Cache Storage here (e.g. an opaque origin): nothing is cached
    }
  }

  /** For every catalog model, which of its builds are downloaded. */
  async list(): Promise<CachedModelStatus[]> {
    return Promise.all(
      this.catalog.map(async (entry) => {
        const ids = [entry.variants.q4f16.modelId, entry.variants.q4f32.modelId];
        const cached = await Promise.all(ids.map((id) => this.isCached(id)));
        return { id: entry.id, cachedVariants: ids.filter((_, i) => cached[i]) };
      }),
    );
  }

  /**
   * Deletes every downloaded file of a model (both builds). A loaded model keeps running.
   * Each build is deleted even when the other fails; the first failure is then thrown.
   */
  async delete(id: string): Promise<void> {
    const entry = findCatalogEntry(this.catalog, id);
    if (!entry) throw modelNotFound(id, this.catalog.map((e) => e.id));
    const results = await Promise.allSettled([entry.variants.q4f16, entry.variants.q4f32].map((variant) => this.webllm.deleteBuild(variant.modelId, this.appConfig)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** The origin's storage use and quota (`navigator.storage.estimate()`), or null without a StorageManager. */
  async estimate(): Promise<StorageInfo | null> {
    if (!this.storage) return null;
    const { usage = 0, quota = 0 } = await this.storage.estimate();
    const persisted = this.storage.persisted ? await this.storage.persisted().catch(() => null) : null;
    return { usageBytes: usage, quotaBytes: quota, freeBytes: Math.max(0, quota - usage), persisted };
  }

  /**
   * Call before downloading `variant`: asks for persistent storage (so gigabytes of weights
   * are not evicted), then checks the quota, failing with `quota_exceeded` (how much is
   * needed and free) instead of failing halfway through the download.
   */
  async prepareDownload(model: string, variant: ModelVariant): Promise<{ persisted: boolean }> {
    let persisted = false;
    if (this.storage?.persisted) persisted = await this.storage.persisted().catch(() => false);
    if (!persisted && this.requestPersist) persisted = await this.requestPersist().catch(() => false);
    const info = await this.estimate().catch(() => null);
    if (info && info.quotaBytes > 0 && info.freeBytes < variant.downloadBytes) throw quotaExceeded(model, variant.downloadBytes, info);
    return { persisted };
  }
}
