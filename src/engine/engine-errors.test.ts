import { describe, expect, it } from 'vitest';
import { ApiError } from '../shared/api-error';
import { classifyEngineError, formatBytes, generationError, loadError, modelNotFound, quotaExceeded, type LoadFailureContext } from './engine-errors';

/** An error shaped like web-llm's: a plain Error whose class sets `name`. */
function named(name: string, message: string): Error {
  return Object.assign(new Error(message), { name });
}

const ctx: LoadFailureContext = {
  model: 'Qwen3-4B-q4f16_1-MLC',
  variantId: 'Qwen3-4B-q4f16_1-MLC',
  vramBytes: 3.6e9,
  downloadBytes: 2.3e9,
  modelLibUrl: 'https://mirror.example/libs/Qwen3-4B-q4f16_1_cs1k-webgpu.wasm',
  smallerModel: 'Qwen3-1.7B-q4f16_1-MLC',
};

describe('classifyEngineError', () => {
  it.each([
    [named('WebGPUNotAvailableError', 'WebGPU is not supported in your current environment'), 'webgpu'],
    [new Error('Unable to find a compatible GPU. This issue might be because…'), 'webgpu'],
    [named('ShaderF16SupportError', 'This model requires WebGPU extension shader-f16'), 'webgpu'],
    [named('DeviceLostError', 'The WebGPU device was lost while loading the model. This issue often occurs due to running out of memory (OOM).'), 'device_lost'],
    [new Error('Out of memory creating buffer'), 'gpu_memory'],
    [new DOMException('Quota exceeded.', 'QuotaExceededError'), 'quota'],
    [new TypeError('Failed to fetch'), 'download'],
    [new TypeError("Failed to execute 'add' on 'Cache': Request failed"), 'download'],
    [new Error('ArtifactOPFSCache: Unable to fetch https://x/a.bin, received status 404'), 'download'],
    [named('CompileError', 'WebAssembly.instantiate(): expected magic word 00 61 73 6d, found 3c 21 44 4f'), 'corrupt'],
    [new SyntaxError('Unexpected token < in JSON at position 0'), 'corrupt'],
    [named('IntegrityError', 'Integrity verification failed for https://x/tokenizer.json'), 'corrupt'],
    [named('ContextWindowSizeExceededError', 'Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096'), 'context'],
    [named('RangeError', 'Make sure 0 < top_p <= 1.'), 'invalid_request'],
    [new RangeError('Array buffer allocation failed'), 'gpu_memory'],
    [new DOMException('The operation was aborted.', 'AbortError'), 'aborted'],
    [new Error('something else'), 'unknown'],
  ])('%s → %s', (err, kind) => {
    expect(classifyEngineError(err)).toBe(kind);
  });
});

describe('loadError', () => {
  it('WebGPU unavailable: 500 webgpu_unavailable with the reason', () => {
    const err = loadError(named('WebGPUNotAvailableError', 'WebGPU is not supported in your current environment.'), ctx);
    expect(err.data).toMatchObject({ status: 500, type: 'server_error', code: 'webgpu_unavailable' });
    expect(err.message).toContain('WebGPU is not supported');
  });

  it('device lost while loading: the GPU lacks memory; says how much is needed and what to do', () => {
    const err = loadError(named('DeviceLostError', 'The WebGPU device was lost while loading the model.'), ctx);
    expect(err.data.code).toBe('gpu_out_of_memory');
    expect(err.message).toContain('3.6 GB');
    expect(err.message).toContain('Qwen3-1.7B-q4f16_1-MLC');
    expect(err.message).toMatch(/Close other tabs/);
  });

  it('quota exceeded: how much is needed and free', () => {
    const err = loadError(new DOMException('Quota exceeded.', 'QuotaExceededError'), { ...ctx, storage: { usageBytes: 4e9, quotaBytes: 5e9 } });
    expect(err.data.code).toBe('quota_exceeded');
    expect(err.message).toContain('about 2.3 GB');
    expect(err.message).toContain('only 1.0 GB more');
    expect(err.message).toContain('4.0 GB of 5.0 GB in use');
  });

  it('download failure: names the file and its HTTP status', () => {
    const file = { url: 'https://mirror.example/Qwen3-4B-q4f16_1-MLC/resolve/main/params_shard_3.bin', status: 404, problem: 'HTTP 404' };
    const err = loadError(new TypeError("Failed to execute 'add' on 'Cache': Request failed"), { ...ctx, file });
    expect(err.data.code).toBe('model_download_failed');
    expect(err.message).toContain(`${file.url} answered HTTP 404`);
  });

  it('download failure without a known file: the network, and that fetched files are kept', () => {
    const err = loadError(new TypeError('Failed to fetch'), { ...ctx, file: null });
    expect(err.data.code).toBe('model_download_failed');
    expect(err.message).toMatch(/network connection/);
  });

  it('a corrupt library names its URL; one that is really a 404 page is a download failure', () => {
    const compile = named('CompileError', 'WebAssembly.instantiate(): expected magic word 00 61 73 6d');
    const corrupt = loadError(compile, ctx);
    expect(corrupt.data.code).toBe('model_download_failed');
    expect(corrupt.message).toContain('is corrupt');
    expect(corrupt.message).toContain(ctx.modelLibUrl);
    const missing = loadError(compile, { ...ctx, file: { url: ctx.modelLibUrl!, status: 404, problem: 'HTTP 404' } });
    expect(missing.message).toContain('answered HTTP 404');
  });

  it('anything else: model_load_failed with the message; ApiErrors pass through', () => {
    expect(loadError(new Error('boom'), ctx).data).toMatchObject({ code: 'model_load_failed', status: 500 });
    const own = modelNotFound('x', ['a']);
    expect(loadError(own, ctx)).toBe(own);
  });
});

describe('generationError', () => {
  it('context overflow: 400 context_length_exceeded with the counts', () => {
    const err = generationError(
      named('ContextWindowSizeExceededError', 'Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096\nConsider…'),
      { model: 'm' },
    );
    expect(err.data).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'context_length_exceeded', param: 'input' });
    expect(err.message).toContain('5000');
  });

  it('a schema xgrammar cannot compile: 400 on text.format', () => {
    const err = generationError(named('GrammarMatcherInitError', 'Failed to initialize the grammar matcher for response format `json_object`: bad'), { model: 'm' });
    expect(err.data).toMatchObject({ status: 400, param: 'text.format', code: 'invalid_json_schema' });
  });

  it('device lost mid-generation: 500 device_lost, says the model reloads', () => {
    const err = generationError(new Error('Device was lost. This can happen due to insufficient memory'), { model: 'm' });
    expect(err.data).toMatchObject({ status: 500, code: 'device_lost' });
    expect(err.message).toMatch(/loaded again/);
  });

  it('other failures: engine_error', () => {
    expect(generationError(new Error('boom'), { model: 'm' }).data.code).toBe('engine_error');
  });
});

describe('helpers', () => {
  it('model_not_found is a 404 on param model listing the ids', () => {
    const err = modelNotFound('nope', ['a', 'b']);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.data).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    expect(err.message).toContain('a, b');
  });

  it('quotaExceeded without an estimate still says what is needed', () => {
    expect(quotaExceeded('m', 1.5e9, null).message).toContain('about 1.5 GB');
  });

  it('formats bytes', () => {
    expect(formatBytes(2_345_000_000)).toBe('2.3 GB');
    expect(formatBytes(850_000_000)).toBe('850 MB');
    expect(formatBytes(12_000)).toBe('12 kB');
  });
});
