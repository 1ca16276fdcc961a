/**
 * `local-responses/cpu`: opt-in CPU engine (llama.cpp in WebAssembly, GGUF models) for
 * devices without WebGPU. Importing this entry is what makes a bundler copy wllama's wasm
 * (10 MB) into the app; the engine's code loads in the runtime worker only when given.
 *
 * @example
 * import { cpuEngine } from 'local-responses/cpu';
 * await startLocalRuntime({ cpuEngine });
 */
import wllamaWasm from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import type { CpuEngineAssets } from '../protocol/runtime-options';

// Our build turns the import into `new URL('./assets/…wasm', import.meta.url)` (see
// vite.package.config.ts), which the consuming app's bundler follows.
export const cpuEngine: CpuEngineAssets = { wasmUrl: wllamaWasm };
