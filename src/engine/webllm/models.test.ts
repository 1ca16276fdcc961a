import { describe, expect, it, vi } from 'vitest';
import type { LoadProgress } from '../../protocol/local-status';
import { FakeMLCEngine } from '../../../test/fakes/fake-mlc-engine';
import { RuntimeModelManager } from '../../runtime/runtime-model-manager';
import { BrowserDeviceStatus } from '../device-status';
import { WebLlmModels } from './models';
import type { WebGpuSupport } from '../webgpu-support';
import { WebLlmEngine } from './engine';

const QWEN = 'Qwen3-0.6B-q4f16_1-MLC';
const QWEN_F32 = 'Qwen3-0.6B-q4f32_1-MLC';
const LIMITS = { maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 30, maxComputeWorkgroupStorageSize: 32768, maxStorageBuffersPerShaderStage: 10 };
const swiftShader: WebGpuSupport = { usable: true, shaderF16: false, fallbackAdapter: true, adapter: { vendor: 'google', architecture: 'swiftshader' }, limits: LIMITS };
const noAdapter: WebGpuSupport = { usable: false, shaderF16: false, cause: 'no_adapter', reason: 'WebGPU is present but no GPU adapter is available.' };

function setup(gpu: WebGpuSupport = swiftShader, cached: string[] = []) {
  const fake = new FakeMLCEngine();
  const cache = new Set(cached);
  const deleted: string[] = [];
  const persist = vi.fn(async () => true);
  const engine = new WebLlmEngine({
    createEngine: async (config) => {
      fake.config = config;
      return fake;
    },
    detectGpu: async () => gpu,
    cacheApi: {
      hasModelInCache: async (id) => cache.has(id),
      deleteBuild: async (id) => {
        deleted.push(id);
        cache.delete(id);
      },
    },
    storage: { estimate: async () => ({ usage: 1e9, quota: 10e9 }), persisted: async () => false },
    requestPersist: persist,
  });
  // The web-llm part alone behind the runtime's manager (device status from web-llm too).
  const device = new BrowserDeviceStatus(engine, { usable: true, reason: null });
  return { fake, engine, manager: new RuntimeModelManager(device, [new WebLlmModels(engine)]), deleted, persist, cache };
}

const signal = () => new AbortController().signal;

describe('WebLlmModels', () => {
  it('status: GPU support, the q4f32 build chosen without shader-f16, storage, cached builds', async () => {
    const { manager } = setup(swiftShader, [QWEN_F32, QWEN]);
    const status = await manager.status();
    expect(status.gpu).toEqual({ usable: true, reason: null, shaderF16: false, fallbackAdapter: true, adapter: { vendor: 'google', architecture: 'swiftshader' } });
    expect(status.storage).toEqual({ usageBytes: 1e9, quotaBytes: 10e9, persisted: false });
    expect(status.loaded).toBeNull();
    expect(status.loading).toBeNull();
    expect(status.models.find((m) => m.id === QWEN)).toEqual({ id: QWEN, variant: QWEN_F32, cached: true, cachedVariants: [QWEN, QWEN_F32], loaded: false });
    expect(status.models.find((m) => m.id === 'Llama-3.2-1B-Instruct-q4f16_1-MLC')).toMatchObject({ variant: 'Llama-3.2-1B-Instruct-q4f32_1-MLC', cached: false });
  });

  it('status without an adapter says why', async () => {
    const { manager } = setup(noAdapter);
    const status = await manager.status();
    expect(status.gpu).toEqual({ usable: false, reason: noAdapter.reason, shaderF16: false, cause: 'no_adapter' });
    expect(status.models.find((m) => m.id === QWEN)?.variant).toBe(QWEN);
  });

  it('load: asks for persistent storage, reports progress of that model, then it is loaded', async () => {
    const { manager, fake, persist } = setup();
    fake.reloads.push({
      reports: [
        { progress: 0, timeElapsed: 0, text: 'Start to fetch params' },
        { progress: 0.5, timeElapsed: 1, text: 'Fetching param cache[1/2]: 100MB fetched. 50% completed, 1 secs elapsed.' },
      ],
    });
    const seen: LoadProgress[] = [];
    await manager.load(QWEN, (p) => seen.push(p), signal());
    expect(persist).toHaveBeenCalledOnce();
    expect(fake.calls).toContain(`reload:${QWEN_F32}`);
    expect(seen.map((p) => p.phase)).toEqual(['download', 'download', 'download', 'ready']);
    expect(seen[2]).toMatchObject({ model: QWEN, progress: 0.5, loadedBytes: 100 * 1024 * 1024 });
    const status = await manager.status();
    expect(status.loaded).toBe(QWEN);
    expect(status.models.find((m) => m.id === QWEN)?.loaded).toBe(true);
  });

  it('status shows the load under way; aborting cancels it', async () => {
    const { manager, fake } = setup();
    let release!: () => void;
    fake.reloads.push({ gate: new Promise<void>((resolve) => (release = resolve)), reports: [{ progress: 0.25, timeElapsed: 1, text: 'Fetching param cache[1/4]: 10MB fetched. 25% completed, 1 secs elapsed.' }] });
    const abort = new AbortController();
    const loading = manager.load(QWEN, () => {}, abort.signal);
    await vi.waitFor(async () => expect((await manager.status()).loading).toMatchObject({ model: QWEN, phase: 'download', progress: 0.25 }));
    abort.abort();
    await expect(loading).rejects.toBeDefined();
    release();
    expect(fake.calls).toContain('unload');
    await vi.waitFor(async () => expect((await manager.status()).loading).toBeNull());
    expect((await manager.status()).loaded).toBeNull();
  });

  it('deleteCached unloads a loaded model and deletes both builds', async () => {
    const { manager, deleted, engine } = setup(swiftShader, [QWEN_F32]);
    await manager.load(QWEN, () => {}, signal());
    await manager.deleteCached(QWEN);
    expect(engine.loadedModel()).toBeNull();
    expect(deleted).toEqual([QWEN, QWEN_F32]);
  });

  it('a model outside the catalog is 404 model_not_found', async () => {
    const { manager } = setup();
    await expect(manager.load('gpt-4o', () => {}, signal())).rejects.toMatchObject({ data: { status: 404, code: 'model_not_found' } });
    await expect(manager.deleteCached('gpt-4o')).rejects.toMatchObject({ data: { status: 404 } });
  });
});
