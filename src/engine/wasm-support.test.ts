import { expect, it } from 'vitest';
import { cpuEngineUnsupported } from './wasm-support';

it('a browser without wasm memory64 gets an error naming the model and what to do', () => {
  const err = cpuEngineUnsupported('Qwen3-0.6B-Q4_K_M-GGUF', () => false);
  expect(err?.data).toMatchObject({ status: 500, code: 'wasm_unsupported', type: 'server_error' });
  expect(err?.message).toMatch(/^Qwen3-0\.6B-Q4_K_M-GGUF cannot run in this browser: .*memory64.* Chrome, Edge \(133 or later\) or Firefox/);
});

it('a browser with it passes', () => {
  expect(cpuEngineUnsupported('Qwen3-0.6B-Q4_K_M-GGUF', () => true)).toBeNull();
});
