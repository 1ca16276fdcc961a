/**
 * The code interpreter the browser runtime uses: containers (see `ContainerPool`) of
 * pyodide interpreters running in the sandbox frame (see `sandbox-frame-inside.ts`).
 */
import { ContainerPool } from './container-pool';
import { loadPyodideFiles } from './pyodide-files';
import type { PyodideAssets } from '../../protocol/runtime-options';
import { SandboxLink } from './sandbox-link';

export interface SandboxedPythonOptions {
  /** Port to the sandbox frame (from `createPythonSandboxFrame` in the leader page). */
  port: MessagePort;
  /** Where pyodide's files are: a folder URL (`https://app.example/pyodide/`) or one URL per file. */
  assets: PyodideAssets;
  /** Per call, ms. Default 30 000. */
  timeLimitMs?: number;
  /** For pyodide to start, ms. Default 60 000. */
  loadTimeoutMs?: number;
  /** A container idle this long is dropped, ms. Default 20 minutes. */
  idleMs?: number;
  /** Live containers at most. Default 4. */
  maxContainers?: number;
  /** Keep one interpreter started ahead once Python has been used. Default true. */
  warmSpare?: boolean;
  /** Package index for imports beyond the standard library (online only); default none. */
  packageBaseUrl?: string;
  /** stdout+stderr kept per call. Default 20 000 characters. */
  maxOutputChars?: number;
  /** Figures kept per call, all together (PNG data URLs). Default 4 000 000 characters (~3 MB). */
  maxImageChars?: number;
}

export function createSandboxedPython(options: SandboxedPythonOptions): ContainerPool {
  const link = new SandboxLink({
    port: options.port,
    files: () => loadPyodideFiles(options.assets),
    config: {
      maxOutputChars: options.maxOutputChars ?? 20_000,
      maxImageChars: options.maxImageChars ?? 4_000_000,
      maxErrorChars: 4_000,
      ...(options.packageBaseUrl ? { packageBaseUrl: options.packageBaseUrl } : {}),
    },
    timeLimitMs: options.timeLimitMs ?? 30_000,
    loadTimeoutMs: options.loadTimeoutMs ?? 60_000,
  });
  return new ContainerPool({
    spawn: (signal) => link.spawn(signal),
    ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
    ...(options.maxContainers !== undefined ? { maxContainers: options.maxContainers } : {}),
    ...(options.warmSpare !== undefined ? { warmSpare: options.warmSpare } : {}),
  });
}
