/**
 * The device-status port behind `/v1/local/status` (the server's `RuntimeModelManager`
 * consumes it) and its implementation: what this browser offers the engines — WebGPU,
 * WebAssembly, origin storage — said once for all of them.
 *
 * The GPU is reported as the web-llm engine detected it, not probed again: that detection
 * decides which build of each model loads (`q4f32` without `shader-f16`), so the status and
 * the `variant` of every model follow from the same answer.
 */
import type { CpuStatus, GpuStatus, IsolationStatus, StorageStatus } from '../protocol/local-status';
import { isolationStatus } from './cross-origin-isolation';
import { cpuEngineSupport } from './wasm-support';
import type { WebGpuSupport } from './webgpu-support';

/** The origin's storage as an engine's cache estimates it. */
export interface StorageInfo {
  usageBytes: number;
  quotaBytes: number;
  freeBytes: number;
  /** Whether the browser promised not to evict this origin's data; null when unknown. */
  persisted: boolean | null;
}

/** What the device offers the engines: GPU support, WebAssembly support, cross-origin isolation and origin storage. */
export interface DeviceStatus {
  gpu(): Promise<GpuStatus>;
  cpu(): CpuStatus;
  isolation(): IsolationStatus;
  storage(): Promise<StorageStatus | null>;
}

/** Where the facts come from; the web-llm engine fits (its GPU detection, its cache's storage estimate). */
export interface DeviceSources {
  gpuSupport(): Promise<WebGpuSupport>;
  readonly cache: { estimate(): Promise<StorageInfo | null> };
}

/** A WebGPU detection as the status says it (limits stay inside the engine). */
export function gpuStatus(gpu: WebGpuSupport): GpuStatus {
  return gpu.usable
    ? { usable: true, reason: null, shaderF16: gpu.shaderF16, fallbackAdapter: gpu.fallbackAdapter, adapter: gpu.adapter }
    : { usable: false, reason: gpu.reason, shaderF16: false, cause: gpu.cause };
}

export interface CpuFacts {
  /** Threads the CPU engine runs with (the wllama engine's `threads()`). */
  threads?: () => number;
  /** Default: this context's (`cross-origin-isolation.ts`). */
  isolation?: IsolationStatus;
}

export class BrowserDeviceStatus implements DeviceStatus {
  private readonly isolationNow: IsolationStatus;

  /** @param cpuSupport whether wllama's WebAssembly build runs here (probed once, at start). */
  constructor(
    private readonly sources: DeviceSources,
    private readonly cpuSupport: CpuStatus = cpuEngineSupport(),
    private readonly facts: CpuFacts = {},
  ) {
    // Fixed for the context's life: the headers it was served with decided it.
    this.isolationNow = facts.isolation ?? isolationStatus();
  }

  /** WebGPU support (detected on first call). */
  async gpu(): Promise<GpuStatus> {
    return gpuStatus(await this.sources.gpuSupport());
  }

  cpu(): CpuStatus {
    return this.facts.threads ? { ...this.cpuSupport, threads: this.facts.threads() } : this.cpuSupport;
  }

  isolation(): IsolationStatus {
    return this.isolationNow;
  }

  /** The origin's storage estimate; null when the browser gives none. */
  async storage(): Promise<StorageStatus | null> {
    const storage = await this.sources.cache.estimate().catch(() => null);
    return storage ? { usageBytes: storage.usageBytes, quotaBytes: storage.quotaBytes, persisted: storage.persisted === true } : null;
  }
}
