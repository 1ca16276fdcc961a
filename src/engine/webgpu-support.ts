/**
 * WebGPU feature detection, done before anything is downloaded: is there an adapter, does
 * it have `shader-f16` (else the q4f32 builds run), and does it meet the limits web-llm's
 * runtime asks for (mirrors `detectGPUDevice` in @mlc-ai/web-runtime, web-llm 0.2.86).
 *
 * The TypeScript DOM lib has no WebGPU types, so the few members read here are typed
 * structurally; `navigator.gpu` of any browser (or a test fake) fits.
 */
import type { GpuUnavailableCause } from '../protocol/local-status';
import { noWebGpuReason } from './no-webgpu-reason';

export interface GpuAdapterInfoLike {
  vendor?: string;
  architecture?: string;
  device?: string;
  description?: string;
  /** Where current browsers report a software adapter (it moved here from `GPUAdapter`). */
  isFallbackAdapter?: boolean;
}

export interface GpuAdapterLike {
  readonly features: { has(feature: string): boolean };
  readonly limits: Partial<Record<keyof WebGpuLimits, number>>;
  readonly info?: GpuAdapterInfoLike;
  /** True for a software adapter (SwiftShader, WARP): works, but far too slow for an LLM. */
  readonly isFallbackAdapter?: boolean;
}

export interface GpuLike {
  requestAdapter(options?: { powerPreference?: 'high-performance' | 'low-power' }): Promise<GpuAdapterLike | null>;
}

export interface WebGpuLimits {
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
  maxComputeWorkgroupStorageSize: number;
  maxStorageBuffersPerShaderStage: number;
}

export type WebGpuSupport =
  | {
      usable: true;
      shaderF16: boolean;
      fallbackAdapter: boolean;
      adapter: GpuAdapterInfoLike;
      limits: WebGpuLimits;
    }
  | {
      usable: false;
      shaderF16: false;
      /** Machine-readable cause; `reason` says it for a person, with what to do. */
      cause: GpuUnavailableCause;
      reason: string;
      limits?: WebGpuLimits;
    };

/** The least web-llm's runtime accepts (it falls back to these when the 1 GiB defaults do not fit). */
export const REQUIRED_LIMITS: WebGpuLimits = {
  maxBufferSize: 256 * 1024 * 1024,
  maxStorageBufferBindingSize: 128 * 1024 * 1024,
  maxComputeWorkgroupStorageSize: 32 * 1024,
  maxStorageBuffersPerShaderStage: 10,
};

export interface WebGpuEnvironment {
  /** `navigator.gpu`; undefined when the browser (or this context) has no WebGPU. */
  gpu: GpuLike | undefined;
  /** `isSecureContext`: WebGPU is only exposed on https and localhost. */
  secureContext: boolean;
  /** `navigator.userAgent`: which browser to advise when WebGPU is missing. */
  userAgent?: string;
}

function currentEnvironment(): WebGpuEnvironment {
  const nav = (globalThis as { navigator?: { gpu?: GpuLike; userAgent?: string } }).navigator;
  const secure = (globalThis as { isSecureContext?: boolean }).isSecureContext;
  return { gpu: nav?.gpu, secureContext: secure ?? true, ...(nav?.userAgent ? { userAgent: nav.userAgent } : {}) };
}

/**
 * Said to a visitor: what they can change in their own browser. Developer switches (browser
 * flags, headless runs) are for docs/models.md, never for a person who opened the app.
 */
const NO_ADAPTER_HELP =
  'The GPU may be blocked for this graphics driver, or hardware acceleration turned off in the browser settings ' +
  '("Use graphics acceleration when available"). Update the graphics driver or try another browser; the CPU models work without a GPU.';

function readLimits(adapter: GpuAdapterLike): WebGpuLimits {
  const l = adapter.limits;
  return {
    maxBufferSize: l.maxBufferSize ?? 0,
    maxStorageBufferBindingSize: l.maxStorageBufferBindingSize ?? 0,
    maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize ?? 0,
    maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage ?? 0,
  };
}

function adapterInfo(info: GpuAdapterInfoLike | undefined): GpuAdapterInfoLike {
  const out: GpuAdapterInfoLike = {};
  for (const key of ['vendor', 'architecture', 'device', 'description'] as const) {
    const value = info?.[key];
    if (typeof value === 'string') out[key] = value;
  }
  return out;
}

/**
 * A CPU emulation: flagged as a fallback adapter, or Chromium's SwiftShader, which
 * Chromium 156 reports as `vendor: google, architecture: swiftshader` without the flag.
 */
function isSoftwareAdapter(adapter: GpuAdapterLike): boolean {
  const info = adapter.info;
  return adapter.isFallbackAdapter === true || info?.isFallbackAdapter === true || /swiftshader/i.test(`${info?.architecture ?? ''} ${info?.description ?? ''}`);
}

function describeAdapter(info: GpuAdapterInfoLike | undefined): string {
  const parts = [info?.description, info?.vendor, info?.architecture].filter((p): p is string => !!p);
  return parts.length > 0 ? parts.join(' / ') : 'this GPU';
}

/**
 * Detects whether models can run here, and how.
 *
 * @example
 * const gpu = await detectWebGpu();
 * if (!gpu.usable) showError(gpu.reason);
 * else load(resolveVariant(entry, gpu.shaderF16));
 */
export async function detectWebGpu(env: WebGpuEnvironment = currentEnvironment()): Promise<WebGpuSupport> {
  if (!env.gpu) {
    if (!env.secureContext)
      return {
        usable: false,
        shaderF16: false,
        cause: 'insecure_context',
        reason: 'WebGPU is only available on secure pages. Open this app over https:// or from http://localhost.',
      };
    return {
      usable: false,
      shaderF16: false,
      cause: 'no_webgpu',
      reason: noWebGpuReason(env.userAgent),
    };
  }

  let adapter: GpuAdapterLike | null;
  try {
    adapter = await env.gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return { usable: false, shaderF16: false, cause: 'adapter_error', reason: `Requesting a WebGPU adapter failed (${detail}). ${NO_ADAPTER_HELP}` };
  }
  if (!adapter)
    return { usable: false, shaderF16: false, cause: 'no_adapter', reason: `WebGPU is present but no GPU adapter is available. ${NO_ADAPTER_HELP}` };

  const limits = readLimits(adapter);
  const short = (Object.keys(REQUIRED_LIMITS) as Array<keyof WebGpuLimits>).filter((key) => limits[key] < REQUIRED_LIMITS[key]);
  if (short.length > 0) {
    const detail = short.map((key) => `${key} is ${limits[key]}, at least ${REQUIRED_LIMITS[key]} is needed`).join('; ');
    return {
      usable: false,
      shaderF16: false,
      cause: 'limits',
      reason: `${describeAdapter(adapter.info)} is too limited to run a model (${detail}). Try another browser or device, or update the GPU driver.`,
      limits,
    };
  }

  return {
    usable: true,
    shaderF16: adapter.features.has('shader-f16'),
    fallbackAdapter: isSoftwareAdapter(adapter),
    // GPUAdapterInfo's fields are prototype getters: a spread would copy nothing.
    adapter: adapterInfo(adapter.info),
    limits,
  };
}
