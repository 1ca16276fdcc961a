/**
 * How many threads the CPU engine (wllama) asks for. llama.cpp decodes memory-bound, and
 * on the small machines that run the CPU engine every core counts, so the default is all
 * of them (wllama's own default is half, which on 2 cores is one thread). Threads need
 * SharedArrayBuffer, i.e. cross-origin isolation: without it, one.
 */

export interface CpuThreadsInput {
  /** Whether the runtime is cross-origin isolated. */
  isolated: boolean;
  /** `navigator.hardwareConcurrency` (logical cores); undefined when the browser hides it. */
  cores: number | undefined;
  /** The `cpu.threads` runtime option, when set. */
  requested?: number | undefined;
}

export function cpuThreads({ isolated, cores, requested }: CpuThreadsInput): number {
  if (!isolated) return 1;
  const wanted = requested ?? cores ?? 1;
  return Number.isFinite(wanted) && wanted >= 1 ? Math.floor(wanted) : 1;
}
