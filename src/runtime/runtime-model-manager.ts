/**
 * `/v1/local/*` over every engine of the runtime: the device's GPU, CPU and storage once, each
 * engine's models side by side, and a load or delete handed to the engine that owns the id.
 */
import { notFound } from '../shared/api-error';
import type { DeviceStatus } from '../engine/device-status';
import type { EngineModels } from '../ports/engine-models';
import type { LoadProgress, LocalStatus } from '../protocol/local-status';
import type { ModelManager } from '../ports/model-manager';
import { Codes } from '../shared/error-codes';

export class RuntimeModelManager implements ModelManager {
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
    return this.owner(id).load(id, onProgress, signal);
  }

  async deleteCached(id: string): Promise<void> {
    return this.owner(id).deleteCached(id);
  }

  async onDevice(id: string): Promise<boolean> {
    const owner = this.engines.find((e) => e.has(id));
    // Served by an engine without downloads (the scripted test model).
    if (!owner) return true;
    if (owner.loaded() === id) return true;
    return (await owner.models()).some((m) => m.id === id && m.cached);
  }

  private owner(id: string): EngineModels {
    const owner = this.engines.find((e) => e.has(id));
    // Served by an engine without downloads (the scripted test model), or not served at all.
    if (!owner) throw notFound(`The model '${id}' has nothing to download or delete: it is not one of this runtime's downloadable models.`, 'model', Codes.modelNotFound);
    return owner;
  }
}
