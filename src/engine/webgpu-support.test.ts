import { afterEach, describe, expect, it, vi } from 'vitest';
import { REQUIRED_LIMITS, detectWebGpu, type GpuAdapterLike, type GpuLike } from './webgpu-support';

const GOOD_LIMITS = {
  maxBufferSize: 1 << 30,
  maxStorageBufferBindingSize: 1 << 30,
  maxComputeWorkgroupStorageSize: 32768,
  maxStorageBuffersPerShaderStage: 10,
};

function adapter(features: string[], limits: Partial<typeof GOOD_LIMITS> = {}, extra: Partial<GpuAdapterLike> = {}): GpuAdapterLike {
  return { features: new Set(features), limits: { ...GOOD_LIMITS, ...limits }, info: { vendor: 'google', architecture: 'swiftshader' }, ...extra };
}

function gpu(result: GpuAdapterLike | null | Error) {
  const requestAdapter = vi.fn(async () => {
    if (result instanceof Error) throw result;
    return result;
  });
  return { gpu: { requestAdapter } satisfies GpuLike, requestAdapter };
}

describe('detectWebGpu', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('explains a browser without navigator.gpu', async () => {
    const result = await detectWebGpu({ gpu: undefined, secureContext: true });
    expect(result).toMatchObject({ usable: false, cause: 'no_webgpu', shaderF16: false });
    if (!result.usable) expect(result.reason).toMatch(/navigator\.gpu is missing/);
  });

  it('explains an insecure page', async () => {
    const result = await detectWebGpu({ gpu: undefined, secureContext: false });
    expect(result).toMatchObject({ usable: false, cause: 'insecure_context' });
    if (!result.usable) expect(result.reason).toMatch(/https:\/\/|localhost/);
  });

  it('explains a missing adapter in words for a visitor: no browser flags, no headless advice', async () => {
    const { gpu: g } = gpu(null);
    const result = await detectWebGpu({ gpu: g, secureContext: true });
    expect(result).toMatchObject({ usable: false, cause: 'no_adapter' });
    if (!result.usable) {
      expect(result.reason).toContain('hardware acceleration');
      expect(result.reason).not.toMatch(/--enable|chrome:\/\/|headless|about:config/i);
    }
  });

  it('reports a failing requestAdapter with its message', async () => {
    const { gpu: g } = gpu(new Error('GPU process crashed'));
    const result = await detectWebGpu({ gpu: g, secureContext: true });
    expect(result).toMatchObject({ usable: false, cause: 'adapter_error' });
    if (!result.usable) expect(result.reason).toContain('GPU process crashed');
  });

  it('finds shader-f16 absent (SwiftShader) and asks for the high-performance adapter', async () => {
    const { gpu: g, requestAdapter } = gpu(adapter([], {}, { isFallbackAdapter: true }));
    const result = await detectWebGpu({ gpu: g, secureContext: true });
    expect(result).toMatchObject({ usable: true, shaderF16: false, fallbackAdapter: true });
    expect(requestAdapter).toHaveBeenCalledWith({ powerPreference: 'high-performance' });
    if (result.usable) expect(result.limits.maxStorageBufferBindingSize).toBe(1 << 30);
  });

  it('finds shader-f16 present', async () => {
    const { gpu: g } = gpu(adapter(['shader-f16', 'subgroups'], {}, { info: { vendor: 'nvidia', architecture: 'ampere' } }));
    expect(await detectWebGpu({ gpu: g, secureContext: true })).toMatchObject({ usable: true, shaderF16: true, fallbackAdapter: false });
  });

  it("knows SwiftShader as a software adapter without the flag, and copies GPUAdapterInfo's getters", async () => {
    // Chromium 156: `isFallbackAdapter` unset, the fields are prototype getters.
    class Info {
      get vendor() {
        return 'google';
      }
      get architecture() {
        return 'swiftshader';
      }
    }
    const { gpu: g } = gpu({ features: new Set<string>(), limits: GOOD_LIMITS, info: new Info() });
    expect(await detectWebGpu({ gpu: g, secureContext: true })).toMatchObject({ usable: true, fallbackAdapter: true, adapter: { vendor: 'google', architecture: 'swiftshader' } });
  });

  it("rejects an adapter below web-llm's minimum limits, naming the limit", async () => {
    const { gpu: g } = gpu(adapter(['shader-f16'], { maxStorageBufferBindingSize: 64 * 1024 * 1024 }));
    const result = await detectWebGpu({ gpu: g, secureContext: true });
    expect(result).toMatchObject({ usable: false, cause: 'limits' });
    if (!result.usable) expect(result.reason).toContain(`maxStorageBufferBindingSize is ${64 * 1024 * 1024}, at least ${REQUIRED_LIMITS.maxStorageBufferBindingSize}`);
  });

  it('reads navigator.gpu by default', async () => {
    const { gpu: g } = gpu(adapter([]));
    vi.stubGlobal('navigator', { gpu: g });
    expect(await detectWebGpu()).toMatchObject({ usable: true, shaderF16: false });
    vi.stubGlobal('navigator', {});
    expect(await detectWebGpu()).toMatchObject({ usable: false, cause: 'no_webgpu' });
  });
});
