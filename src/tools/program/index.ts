/**
 * Programmatic tool calling: the tool's descriptor, and the browser's sandboxes for it (a
 * QuickJS worker per program; the worker's code and wasm load at the first program).
 */
export { programTool } from './program-tool';
export { workerPrograms, type WorkerProgramsOptions } from './worker-programs';
export { DEFAULT_PROGRAM_LIMITS } from './program-protocol';
