/**
 * The CPU engine's threads: what it asks wllama for at load, and what it reports (wllama's
 * own count once a model is loaded). The choice of the number is `cpu-threads.ts`'s.
 */
import { expect, test } from 'vitest';
import { FakeWllama } from '../../../test/fakes/fake-wllama';
import { GGUF_CATALOG } from './gguf-catalog';
import { WllamaEngine } from './engine';

const QWEN = 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF';

function engine(fake: FakeWllama, threads?: number) {
  return new WllamaEngine({
    catalog: GGUF_CATALOG,
    modelBase: 'https://mirror.example/gguf',
    wasmUrl: 'https://app.example/assets/wllama.wasm',
    createWllama: () => fake,
    ...(threads !== undefined ? { threads } : {}),
  });
}

test('loads with the threads it was given, and reports what wllama runs with', async () => {
  const fake = new FakeWllama();
  const e = engine(fake, 4);
  expect(e.threads()).toBe(4); // what the next load asks for
  await e.ensureLoaded(QWEN, new AbortController().signal);
  expect(fake.loadParams?.n_threads).toBe(4);
  expect(e.threads()).toBe(4);
});

test('reports one thread when wllama could not start its pool (no SharedArrayBuffer)', async () => {
  const fake = new FakeWllama({ noSharedMemory: true });
  const e = engine(fake, 4);
  await e.ensureLoaded(QWEN, new AbortController().signal);
  expect(e.threads()).toBe(1);
});

test('one thread unless told otherwise (never wllama\'s default of half the cores)', async () => {
  const fake = new FakeWllama();
  const e = engine(fake);
  await e.ensureLoaded(QWEN, new AbortController().signal);
  expect(fake.loadParams?.n_threads).toBe(1);
  expect(e.threads()).toBe(1);
});
