/**
 * Which engine's models suit this device. Its own module: the runtime decides it without
 * loading the CPU engine (see composition-root.ts, which imports wllama only on demand).
 */
import type { WebGpuSupport } from '../engine/webgpu-support';

/**
 * The engine whose models suit this device: `web-llm` when WebGPU has a usable adapter,
 * `wllama` (CPU) otherwise. A software adapter (SwiftShader, WARP) counts as not usable: it
 * runs, but at minutes per token. No answer from detection (`null`: it failed or timed out)
 * means `wllama`.
 */
export function preferredEngine(gpu: WebGpuSupport | null | undefined | void): 'web-llm' | 'wllama' {
  return gpu?.usable && !gpu.fallbackAdapter ? 'web-llm' : 'wllama';
}
