/**
 * Whether this browser can run wllama's WebAssembly build. Its main build uses 64-bit wasm
 * memory (memory64, Chrome/Edge 133+, Firefox 134+); browsers without it (Safari up to 18,
 * older Chromium) need wllama's "compat" build, which we do not ship (`@wllama/wllama-compat`
 * is not in our package registry, and fetching it from a CDN would break offline use and
 * the no-third-party-requests rule). Without the check, such a browser fails inside
 * wllama's worker with a wasm validation error nobody can act on.
 */
import type { CpuStatus } from '../protocol/local-status';
import { serverError, type ApiError } from '../shared/api-error';
import { Codes } from '../shared/error-codes';

/** The probe wllama itself uses: a one-page memory with 64-bit addresses. */
export function hasWasmMemory64(): boolean {
  try {
    new WebAssembly.Memory({ address: 'i64', initial: 1n } as unknown as WebAssembly.MemoryDescriptor);
    return true;
  } catch {
    return false;
  }
}

/** Why the CPU engine cannot run in this browser, in words a person can act on; null when it can. */
export function cpuEngineProblem(probe: () => boolean = hasWasmMemory64): string | null {
  if (typeof WebAssembly === 'undefined') return 'WebAssembly is turned off in this browser. Turn it on, or use a current Chrome, Edge or Firefox.';
  if (probe()) return null;
  return (
    'the CPU engine needs 64-bit WebAssembly memory (memory64), which this browser does not support. ' +
    'Update it, or use a current Chrome, Edge (133 or later) or Firefox (134 or later).'
  );
}

/** For `/v1/local/status`: whether CPU (GGUF) models can run here, and if not why. */
export function cpuEngineSupport(probe: () => boolean = hasWasmMemory64): CpuStatus {
  const problem = cpuEngineProblem(probe);
  return { usable: problem === null, reason: problem };
}

/** Null when the CPU engine can run here; otherwise the ApiError a request for `model` gets. */
export function cpuEngineUnsupported(model: string, probe: () => boolean = hasWasmMemory64): ApiError | null {
  const problem = cpuEngineProblem(probe);
  return problem === null ? null : serverError(`${model} cannot run in this browser: ${problem}`, Codes.wasmUnsupported);
}
