/**
 * `/v1/local/*` over every engine of the runtime: the device's GPU, CPU and storage once, each
 * engine's models side by side, and a load or delete handed to the engine that owns the id.
 */
import { notFound } from '../shared/api-error';
import type { DeviceStatus } from '../engine/device-status';
import type { EngineModels } from '../ports/engine-models';
import type { LoadProgress, LocalModelStatus, LocalStatus } from '../protocol/local-status';
import type { ModelManager } from '../ports/model-manager';
import { Codes } from '../shared/error-codes';

/** How long a route's decision trusts an engine's cache list read earlier (ms). */
const ON_DEVICE_TTL_MS = 5_000;

export class RuntimeModelManager implements ModelManager {
  /** Each engine's cache list as last read for `onDevice`. */
  private readonly cacheLists = new Map<EngineModels, { at: number; models: Promise<LocalModelStatus[]> }>();

  constructor(
    private readonly device: DeviceStatus,
    private readonly engines: readonly EngineModels[],
  ) {}

  async status(): Promise<LocalStatus> {
    const [gpu, storage, ...models] = await Promise.all([this.device.gpu(), this.device.storage().catch(() => null), ...this.engines.map((e) => e.models())]);
    return {
      gpu,
      cpu: this.device.cpu(),
      isolation: this.device.isolation(),
      storage,
      loaded: this.engines.map((e) => e.loaded()).find((id) => id !== null) ?? null,
      loading: this.engines.map((e) => e.loading()).find((p) => p !== null) ?? null,
      models: models.flat(),
    };
  }

  async load(id: string, onProgress: (p: LoadProgress) => void, signal: AbortSignal): Promise<void> {
    const owner = this.owner(id);
    try {
      return await owner.load(id, onProgress, signal);
    } finally {
      this.cacheLists.delete(owner);
    }
  }

  async deleteCached(id: string): Promise<void> {
    const owner = this.owner(id);
    try {
      return await owner.deleteCached(id);
    } finally {
      this.cacheLists.delete(owner);
    }
  }

  /**
   * Asked by a route's decision on every request, so the engines' cache lists (a Cache
   * Storage lookup per build of every catalog model) are read at most every ON_DEVICE_TTL_MS,
   * and again at once after a load or a delete through this manager.
   */
  async onDevice(id: string): Promise<boolean> {
    const owner = this.engines.find((e) => e.has(id));
    // Served by an engine without downloads (the scripted test model).
    if (!owner) return true;
    if (owner.loaded() === id) return true;
    let read = this.cacheLists.get(owner);
    if (!read || Date.now() - read.at > ON_DEVICE_TTL_MS) {
      read = { at: Date.now(), models: owner.models() };
      this.cacheLists.set(owner, read);
      // A failed read is not kept: the next request reads again.
      read.models.catch(() => this.cacheLists.delete(owner));
    }
    return (await read.models).some((m) => m.id === id && m.cached);
  }

  private owner(id: string): EngineModels {
    const owner = this.engines.find((e) => e.has(id));
    // Served by an engine without downloads (the scripted test model), or not served at all.
    if (!owner) throw notFound(`The model '${id}' has nothing to download or delete: it is not one of this runtime's downloadable models.`, 'model', Codes.modelNotFound);
    return owner;
  }
}
