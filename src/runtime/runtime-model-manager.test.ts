import { describe, expect, it } from 'vitest';
import type { DeviceStatus } from '../engine/device-status';
import type { EngineModels } from '../ports/engine-models';
import type { LoadProgress, LocalModelStatus } from '../protocol/local-status';
import { RuntimeModelManager } from './runtime-model-manager';

/** One engine's models at the port: records what it was asked. */
function engineModels(ids: string[], state: { loaded?: string; loading?: LoadProgress } = {}) {
  const log: string[] = [];
  const models: EngineModels = {
    has: (id) => ids.includes(id),
    models: async () => ids.map((id): LocalModelStatus => ({ id, cached: false, loaded: state.loaded === id })),
    loaded: () => state.loaded ?? null,
    loading: () => state.loading ?? null,
    load: async (id, onProgress) => {
      log.push(`load ${id}`);
      onProgress({ model: id, phase: 'ready', progress: 1, text: 'ready' });
    },
    deleteCached: async (id) => void log.push(`delete ${id}`),
  };
  return { models, log };
}

const device: DeviceStatus = {
  gpu: async () => ({ usable: false, reason: 'No GPU adapter.', shaderF16: false, cause: 'no_adapter' }),
  cpu: () => ({ usable: true, reason: null }),
  isolation: () => ({ crossOriginIsolated: true, reason: null }),
  storage: async () => ({ usageBytes: 1, quotaBytes: 10, persisted: false }),
};

describe('RuntimeModelManager', () => {
  it('status: the device once, every engine\'s models, the loaded model and the load under way of whichever engine has one', async () => {
    const progress: LoadProgress = { model: 'cpu-b', phase: 'download', progress: 0.5, text: 'Downloading' };
    const gpu = engineModels(['gpu-a']);
    const cpu = engineModels(['cpu-a', 'cpu-b'], { loaded: 'cpu-a', loading: progress });
    const status = await new RuntimeModelManager(device, [gpu.models, cpu.models]).status();
    expect(status.gpu).toMatchObject({ usable: false, cause: 'no_adapter' });
    expect(status.cpu).toEqual({ usable: true, reason: null });
    expect(status.storage).toEqual({ usageBytes: 1, quotaBytes: 10, persisted: false });
    expect(status.models.map((m) => [m.id, m.loaded])).toEqual([
      ['gpu-a', false],
      ['cpu-a', true],
      ['cpu-b', false],
    ]);
    expect(status.loaded).toBe('cpu-a');
    expect(status.loading).toEqual(progress);
  });

  it('a storage estimate that fails leaves storage unknown, not the status broken', async () => {
    const manager = new RuntimeModelManager({ ...device, storage: () => Promise.reject(new Error('denied')) }, [engineModels(['a']).models]);
    expect((await manager.status()).storage).toBeNull();
  });

  it('load and delete go to the engine that owns the model', async () => {
    const gpu = engineModels(['gpu-a']);
    const cpu = engineModels(['cpu-a']);
    const manager = new RuntimeModelManager(device, [gpu.models, cpu.models]);
    const seen: string[] = [];
    await manager.load('cpu-a', (p) => seen.push(`${p.model} ${p.phase}`), new AbortController().signal);
    await manager.deleteCached('gpu-a');
    expect(cpu.log).toEqual(['load cpu-a']);
    expect(gpu.log).toEqual(['delete gpu-a']);
    expect(seen).toEqual(['cpu-a ready']);
  });

  it('a model no engine downloads (the scripted test model) is 404 model_not_found', async () => {
    const manager = new RuntimeModelManager(device, [engineModels(['gpu-a']).models]);
    await expect(manager.load('test-scripted', () => {}, new AbortController().signal)).rejects.toMatchObject({ data: { status: 404, code: 'model_not_found', param: 'model' } });
    await expect(manager.deleteCached('test-scripted')).rejects.toMatchObject({ data: { status: 404, code: 'model_not_found' } });
  });

  it('onDevice: loaded, downloaded, or nothing to download; the cache list is read once, and again after a load', async () => {
    const cached = new Set<string>(['a']);
    let reads = 0;
    const engine: EngineModels = {
      ...engineModels(['a', 'b', 'c'], { loaded: 'c' }).models,
      models: async () => {
        reads++;
        return ['a', 'b', 'c'].map((id) => ({ id, cached: cached.has(id), loaded: id === 'c' }));
      },
    };
    const manager = new RuntimeModelManager(device, [engine]);
    expect(await manager.onDevice('a')).toBe(true);
    expect(await manager.onDevice('b')).toBe(false);
    expect(await manager.onDevice('c')).toBe(true);
    expect(await manager.onDevice('test-scripted')).toBe(true);
    expect(reads).toBe(1);
    cached.add('b');
    await manager.load('b', () => undefined, new AbortController().signal);
    expect(await manager.onDevice('b')).toBe(true);
    expect(reads).toBe(2);
  });
});

