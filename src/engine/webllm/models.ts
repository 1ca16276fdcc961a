/**
 * The web-llm engine's part of `/v1/local/*` (`EngineModels`): which catalog models are
 * downloaded (in the build this device's GPU loads), downloading one with progress, deleting
 * one. The device itself (GPU, storage) is `device-status.ts`.
 *
 * Persistent storage: `navigator.storage.persist()` exists only in a window, and the runtime
 * lives in a worker, so the engine's `ModelCache` asks the page that started the runtime
 * (over the control API, see `RuntimeStartOptions`) right before a download it does not have
 * yet. In a window it would call `persist()` itself.
 */
import type { LocalModelStatus } from '../../protocol/local-status';
import { DownloadableModels } from '../downloadable-models';
import type { WebLlmEngine } from './engine';

export class WebLlmModels extends DownloadableModels<WebLlmEngine> {
  /** Per model: whether the build this device loads is downloaded, and every build that is. */
  async models(): Promise<LocalModelStatus[]> {
    // The variant depends on the GPU: detect it first.
    await this.engine.gpuSupport();
    const cached = await this.engine.cache.list();
    const loaded = this.engine.loadedModel();
    return this.engine.models().map((info): LocalModelStatus => {
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
  }

  /** Unloads `id` if it is loaded, then deletes both of its builds from the cache. */
  async deleteCached(id: string): Promise<void> {
    if (this.engine.loadedModel() === id) await this.engine.unload();
    await this.engine.cache.delete(id);
  }
}
