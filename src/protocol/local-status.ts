/**
 * The `/v1/local/*` contract (not part of OpenAI's API; the chat app and any other page of
 * the origin use it): what `GET /v1/local/status` answers, and the SSE events of
 * `POST /v1/local/models/{id}/load`. The engines produce these shapes, the server sends them,
 * the UI parses them with these same schemas, so the three cannot drift apart.
 *
 * Written with zod's mini build (functional checks: `z.optional(x)`, not `x.optional()`):
 * the UI bundles these schemas, and the mini build adds ~8 KB gzipped to it where the full
 * one adds ~25 KB. Mini schemas nest in full ones and parse the same way.
 *
 * Objects are not strict: a client reading them ignores fields it does not know, so a newer
 * runtime can add one without breaking an older page.
 */
import * as z from 'zod/mini';
import { ErrorObject } from './error-response';

/** Why WebGPU cannot be used, for a program (`reason` says it for a person). */
export const GpuUnavailableCause = z.enum(['insecure_context', 'no_webgpu', 'no_adapter', 'adapter_error', 'limits']);
export type GpuUnavailableCause = z.infer<typeof GpuUnavailableCause>;

/** Whether GPU (web-llm) models can run here, as the runtime detected it. */
export const GpuStatus = z.object({
  usable: z.boolean(),
  /** Why WebGPU cannot be used, in words a person can act on; null when usable. */
  reason: z.nullable(z.string()),
  shaderF16: z.boolean(),
  /** Set when not usable. */
  cause: z.optional(GpuUnavailableCause),
  /** A software adapter (SwiftShader, WARP): works, far too slow for a real model. */
  fallbackAdapter: z.optional(z.boolean()),
  /** What the browser says about the adapter (`GPUAdapterInfo`), when usable. */
  adapter: z.optional(z.object({ vendor: z.optional(z.string()), architecture: z.optional(z.string()), device: z.optional(z.string()), description: z.optional(z.string()) })),
});
export type GpuStatus = z.infer<typeof GpuStatus>;

/** Whether CPU (WebAssembly, wllama) models can run in this browser. Always sent. */
export const CpuStatus = z.object({
  usable: z.boolean(),
  /** Why not, in words a person can act on; null when usable. */
  reason: z.nullable(z.string()),
  /**
   * Threads the CPU engine runs with: as wllama reports it for the loaded model, else what
   * the next load asks for (all cores, or the `cpu.threads` runtime option; 1 when the
   * runtime is not cross-origin isolated).
   */
  threads: z.optional(z.number().check(z.int(), z.positive())),
});
export type CpuStatus = z.infer<typeof CpuStatus>;

/**
 * Cross-origin isolation of the runtime (COOP `same-origin` + COEP): it gives
 * SharedArrayBuffer, so the CPU engine's threads and the Python interrupt. Without it all
 * works, single-threaded, and a runaway Python call costs its interpreter's state.
 */
export const IsolationStatus = z.object({
  crossOriginIsolated: z.boolean(),
  /** Why not, in words a person can act on; null when isolated. */
  reason: z.nullable(z.string()),
});
export type IsolationStatus = z.infer<typeof IsolationStatus>;

const bytes = () => z.number().check(z.nonnegative());

/** The origin's storage (every engine's cache counts against the same quota). */
export const StorageStatus = z.object({
  usageBytes: bytes(),
  quotaBytes: bytes(),
  /** Whether the browser promised not to evict the origin's data. */
  persisted: z.boolean(),
});
export type StorageStatus = z.infer<typeof StorageStatus>;

/** One downloadable model on this device. */
export const LocalModelStatus = z.object({
  id: z.string(),
  /** Whether the build this device loads (`variant`) is downloaded. */
  cached: z.boolean(),
  loaded: z.boolean(),
  /** The engine's build this device loads (web-llm: the `q4f32` one without `shader-f16`; wllama: the GGUF file). */
  variant: z.optional(z.string()),
  /** Every downloaded build of the model (also those another device would load). */
  cachedVariants: z.optional(z.array(z.string())),
});
export type LocalModelStatus = z.infer<typeof LocalModelStatus>;

/** Where a model load stands. Engines report it; the load stream and the status carry it. */
export const LoadProgress = z.object({
  model: z.string(),
  phase: z.enum(['download', 'compile', 'ready']),
  /** 0..1 within the phase's bar (engines clamp it). */
  progress: z.number().check(z.minimum(0), z.maximum(1)),
  loadedBytes: z.optional(bytes()),
  totalBytes: z.optional(bytes()),
  text: z.string(),
});
export type LoadProgress = z.infer<typeof LoadProgress>;

/** `GET /v1/local/status`. */
export const LocalStatus = z.object({
  gpu: GpuStatus,
  cpu: CpuStatus,
  isolation: IsolationStatus,
  /** null when the browser gives no estimate. */
  storage: z.nullable(StorageStatus),
  /** Model ready to generate, if any. */
  loaded: z.nullable(z.string()),
  /** The load in progress, if any. */
  loading: z.nullable(LoadProgress),
  models: z.array(LocalModelStatus),
});
export type LocalStatus = z.infer<typeof LocalStatus>;

/**
 * One SSE event of `POST /v1/local/models/{id}/load`: `progress` events, then `ready`, or
 * an `error` with the OpenAI error object; then `[DONE]`.
 */
export const LoadEvent = z.discriminatedUnion('type', [
  z.extend(LoadProgress, { type: z.literal('progress') }),
  z.object({ type: z.literal('ready'), model: z.string() }),
  z.object({ type: z.literal('error'), error: ErrorObject }),
]);
export type LoadEvent = z.infer<typeof LoadEvent>;
