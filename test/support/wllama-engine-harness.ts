/** Shared by the WllamaEngine unit tests: an engine over `FakeWllama`s, requests, and readers of what comes back. */
import { expect, vi } from 'vitest';
import type { Rendered } from '../../src/chat/chat-format';
import { ApiError } from '../../src/shared/api-error';
import type { EngineDelta, GenerateRequest, Generation, LoadProgress } from '../../src/ports/engine';
import { GGUF_CATALOG, GGUF_TEST_CATALOG } from '../../src/engine/wllama/gguf-catalog';
import { WllamaEngine, type WllamaEngineOptions } from '../../src/engine/wllama/engine';
import { FakeWllama } from '../fakes/fake-wllama';

export const QWEN = 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF';
export const LLAMA = 'Llama-3.2-1B-Instruct-Q4_K_M-GGUF';
export const MIRROR = 'https://mirror.example/gguf';
export const WASM = 'https://app.example/assets/wllama.wasm';

export function setup(options: { fakes?: FakeWllama[]; engine?: Partial<WllamaEngineOptions> } = {}) {
  const fakes = [...(options.fakes ?? [new FakeWllama()])];
  const created: FakeWllama[] = [];
  const progress: LoadProgress[] = [];
  const createWllama = vi.fn(() => {
    const fake = fakes.shift() ?? new FakeWllama();
    created.push(fake);
    return fake;
  });
  const engine = new WllamaEngine({
    catalog: [...GGUF_CATALOG, ...GGUF_TEST_CATALOG],
    modelBase: MIRROR,
    wasmUrl: WASM,
    createWllama,
    onProgress: (p) => progress.push(p),
    ...options.engine,
  });
  return { engine, created, createWllama, progress, fake: () => created.at(-1)! };
}

export const signal = () => new AbortController().signal;

/** A request for the engine; `messages`/`prompt` make up its rendered `input`. */
export function request({ messages, prompt, ...over }: Partial<GenerateRequest> & Partial<Rendered> = {}): GenerateRequest {
  return {
    model: QWEN,
    input: { messages: messages ?? [{ role: 'user', content: 'Hi' }], prompt: prompt ?? '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n' },
    signal: signal(),
    ...over,
  };
}

export async function collect(generation: Generation): Promise<EngineDelta[]> {
  const deltas: EngineDelta[] = [];
  for await (const delta of generation) deltas.push(delta);
  return deltas;
}

export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

