/**
 * The model-management port behind `/v1/local/*`: what the chat app needs beyond OpenAI's
 * API (download with progress, cache, storage, GPU support). It is HTTP like the rest, so
 * every tab of the origin can manage models through the service worker, not only the
 * leader tab that hosts the runtime.
 */
import type { LoadProgress } from '../engine/engine';

export interface GpuStatus {
  usable: boolean;
  /** Why WebGPU cannot be used, in words a person can act on. */
  reason: string | null;
  shaderF16: boolean;
  /** Machine-readable cause when not usable (`no_adapter`, `no_webgpu`, `limits`, …). */
  cause?: string;
  /** A software adapter (SwiftShader, WARP): works, far too slow for a real model. */
  fallbackAdapter?: boolean;
  /** What the browser says about the adapter (`GPUAdapterInfo`). */
  adapter?: { vendor?: string; architecture?: string; device?: string; description?: string };
}

export interface StorageStatus {
  usageBytes: number;
  quotaBytes: number;
  persisted: boolean;
}

export interface LocalModelStatus {
  id: string;
  /** Whether the build this device loads (`variant`) is downloaded. */
  cached: boolean;
  loaded: boolean;
  /** The engine's build this device loads (web-llm: the `q4f32` one without `shader-f16`). */
  variant?: string;
  /** Every downloaded build of the model (also those another device would load). */
  cachedVariants?: string[];
}

/** Whether the CPU engine (WebAssembly) can run in this browser. */
export interface CpuStatus {
  usable: boolean;
  /** Why not, in words a person can act on. */
  reason: string | null;
}

export interface RuntimeStatusReport {
  gpu: GpuStatus;
  cpu: CpuStatus;
  storage: StorageStatus | null;
  /** Model ready to generate, if any. */
  loaded: string | null;
  /** The load in progress, if any. */
  loading: LoadProgress | null;
  models: LocalModelStatus[];
}

export interface ModelManager {
  status(): Promise<RuntimeStatusReport>;
  /** Downloads and prepares `id`, reporting progress until it is ready; aborting cancels the download. */
  load(id: string, onProgress: (p: LoadProgress) => void, signal: AbortSignal): Promise<void>;
  /** Removes `id`'s files from the cache (unloading it first if loaded). */
  deleteCached(id: string): Promise<void>;
}

/**
 * One engine's part of model management (`RuntimeModelManager` joins them): its models'
 * cache state, loading one with progress, deleting one.
 */
export interface EngineModels {
  /** Whether `id` is one of this engine's models. */
  has(id: string): boolean;
  models(): Promise<LocalModelStatus[]>;
  /** This engine's model ready to generate, if any. */
  loaded(): string | null;
  /** This engine's load in progress, if any. */
  loading(): LoadProgress | null;
  load(id: string, onProgress: (p: LoadProgress) => void, signal: AbortSignal): Promise<void>;
  deleteCached(id: string): Promise<void>;
}

/** What the device offers the engines: GPU support, WebAssembly support and origin storage. */
export interface DeviceStatus {
  gpu(): Promise<GpuStatus>;
  cpu(): CpuStatus;
  storage(): Promise<StorageStatus | null>;
}
