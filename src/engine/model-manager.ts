/**
 * The `ModelManager` port (`/v1/local/*`) over the web-llm engine: WebGPU support, origin
 * storage, which catalog models are downloaded, downloading one with progress, deleting one.
 *
 * Persistent storage: `navigator.storage.persist()` exists only in a window, and the runtime
 * lives in a worker, so the engine's `ModelCache` asks the page that started the runtime
 * (over the control API, see `RuntimeStartOptions`) right before a download it does not have
 * yet. In a window it would call `persist()` itself.
 */
import type { LoadProgress } from './engine';
import type { LocalModelStatus, ModelManager, RuntimeStatusReport } from '../server/model-manager';
import { modelNotFound } from './engine-errors';
import type { WebLlmEngine } from './webllm-engine';

export class WebLlmModelManager implements ModelManager {
  constructor(private readonly engine: WebLlmEngine) {}

  /**
   * GPU support (detected on first call; the `variant` of each model follows from it),
   * storage estimate, the loaded model, the load under way, and per model whether the build
   * this device loads is downloaded.
   */
  async status(): Promise<RuntimeStatusReport> {
    const [gpu, storage, cached] = await Promise.all([
      this.engine.gpuSupport(),
      this.engine.cache.estimate().catch(() => null),
      this.engine.cache.list(),
    ]);
    const loaded = this.engine.loadedModel();
    const models = this.engine.models().map((info): LocalModelStatus => {
      const variant = this.engine.variantFor(info.id);
      const downloaded = cached.find((c) => c.id === info.id)?.cachedVariants ?? [];
      return {
        id: info.id,
        variant: variant.modelId,
        cached: downloaded.includes(variant.modelId),
        cachedVariants: downloaded,
        loaded: loaded === info.id,
      };
    });
    return {
      gpu: gpu.usable
        ? { usable: true, reason: null, shaderF16: gpu.shaderF16, fallbackAdapter: gpu.fallbackAdapter, adapter: gpu.adapter }
        : { usable: false, reason: gpu.reason, shaderF16: false, cause: gpu.cause },
      storage: storage ? { usageBytes: storage.usageBytes, quotaBytes: storage.quotaBytes, persisted: storage.persisted === true } : null,
      loaded,
      loading: this.engine.currentLoad(),
      models,
    };
  }

  /**
   * Loads `id` (downloading what is not cached), reporting its progress; resolves once it is
   * ready to generate. Aborting `signal` stops the download (files already fetched stay
   * cached) and rejects.
   */
  async load(id: string, onProgress: (progress: LoadProgress) => void, signal: AbortSignal): Promise<void> {
    this.check(id);
    const stop = this.engine.onLoadProgress((progress) => {
      if (progress.model === id) onProgress(progress);
    });
    try {
      await this.engine.ensureLoaded(id, signal);
    } finally {
      stop();
    }
  }

  /** Unloads `id` if it is loaded, then deletes both of its builds from the cache. */
  async deleteCached(id: string): Promise<void> {
    this.check(id);
    if (this.engine.loadedModel() === id) await this.engine.unload();
    await this.engine.cache.delete(id);
  }

  private check(id: string): void {
    const ids = this.engine.models().map((m) => m.id);
    if (!ids.includes(id)) throw modelNotFound(id, ids);
  }
}
