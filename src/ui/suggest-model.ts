/**
 * The first-visit suggestion: a small model this device can run. GPU models need WebGPU;
 * CPU models (wasm) run almost anywhere (64-bit wasm memory), slowly. The memory budget comes from
 * `navigator.deviceMemory` (rounded down by the browser, at most 8) when known.
 */
import type { ModelEntry } from './api';

export interface DeviceInfo {
  gpuUsable: boolean;
  /** False when the runtime says CPU models cannot run here (no wasm memory64); unknown counts as yes. */
  cpuUsable?: boolean;
  /** GiB, from `navigator.deviceMemory`; undefined when the browser does not say. */
  deviceMemoryGb?: number;
}

const GiB = 1024 ** 3;
/** First downloads stay small: a suggestion never asks for more than this. */
const MAX_SUGGESTED_DOWNLOAD = 1.5 * GiB;

export function memoryBudget(device: DeviceInfo): number {
  const memory = device.deviceMemoryGb;
  if (memory === undefined) return 2 * GiB;
  // The model shares memory with the browser and the OS: a quarter to a third of it.
  return memory >= 8 ? 3 * GiB : memory >= 4 ? 1.5 * GiB : 0.75 * GiB;
}

export function needsGpu(model: ModelEntry): boolean {
  return model.engine === 'web-llm' || model.engine === 'webllm';
}

/**
 * Of the visible models this device can run within budget and a small download, the most
 * capable (tools, then reasoning), then the largest. Models the server marks `recommended`
 * (the engine that suits this device) come first when there are any. null when none fits.
 */
export function suggestModel(models: readonly ModelEntry[], device: DeviceInfo): ModelEntry | null {
  const budget = memoryBudget(device);
  const recommended = models.filter((m) => m.recommended);
  const fits = (recommended.length > 0 ? recommended : models).filter(
    (m) =>
      !m.hidden &&
      // A provider's model is the person's own choice, never a first-visit suggestion.
      m.engine !== 'remote' &&
      (needsGpu(m) ? device.gpuUsable : device.cpuUsable !== false) &&
      (m.vram_bytes ?? 0) <= budget &&
      (m.download_bytes ?? 0) <= MAX_SUGGESTED_DOWNLOAD,
  );
  const score = (m: ModelEntry) => (m.capabilities?.tools ? 2 : 0) + (m.capabilities?.reasoning ? 1 : 0);
  fits.sort((a, b) => score(b) - score(a) || (b.download_bytes ?? 0) - (a.download_bytes ?? 0));
  return fits[0] ?? null;
}
