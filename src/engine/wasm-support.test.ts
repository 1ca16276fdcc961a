import { expect, it } from 'vitest';
import { cpuEngineSupport, cpuEngineUnsupported } from './wasm-support';

it('a browser without wasm memory64 gets an error naming the model and what to do', () => {
  const err = cpuEngineUnsupported('Qwen3-0.6B-Q4_K_M-GGUF', () => false);
  expect(err?.data).toMatchObject({ status: 500, code: 'wasm_unsupported', type: 'server_error' });
  expect(err?.message).toMatch(/^Qwen3-0\.6B-Q4_K_M-GGUF cannot run in this browser: .*memory64.* Chrome, Edge \(133 or later\) or Firefox/);
});

it('a browser with it passes', () => {
  expect(cpuEngineUnsupported('Qwen3-0.6B-Q4_K_M-GGUF', () => true)).toBeNull();
});

it('the status says whether CPU models can run, and why not', () => {
  expect(cpuEngineSupport(() => true)).toEqual({ usable: true, reason: null });
  expect(cpuEngineSupport(() => false)).toEqual({ usable: false, reason: expect.stringMatching(/^the CPU engine needs 64-bit WebAssembly memory/) });
});
