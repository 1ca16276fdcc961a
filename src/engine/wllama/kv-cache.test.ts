/**
 * The KV cache type the CPU engine asks llama.cpp for at load: the catalog's choice
 * (`kv_cache`, see gguf-catalog.ts), with flash attention on, which a quantized V cache needs.
 */
import { expect, test } from 'vitest';
import { FakeWllama } from '../../../test/fakes/fake-wllama';
import { GGUF_CATALOG, GGUF_TEST_CATALOG, TINY_LLAMA_MODEL_ID } from './gguf-catalog';
import { WllamaEngine } from './engine';
import { QWEN, collect, request } from '../../../test/support/wllama-engine-harness';

function engine(fake: FakeWllama) {
  return new WllamaEngine({
    catalog: [...GGUF_CATALOG, ...GGUF_TEST_CATALOG],
    modelBase: 'https://mirror.example/gguf',
    wasmUrl: 'https://app.example/assets/wllama.wasm',
    createWllama: () => fake,
  });
}

test('a catalog model loads with a q8_0 KV cache and flash attention', async () => {
  const fake = new FakeWllama();
  await engine(fake).ensureLoaded('Qwen3-0.6B-Q4_K_M-GGUF', new AbortController().signal);
  expect(fake.loadParams).toMatchObject({ cache_type_k: 'q8_0', cache_type_v: 'q8_0', flash_attn: true });
});

test("a model without kv_cache loads with llama.cpp's defaults (its heads are too narrow for q8_0 blocks)", async () => {
  const fake = new FakeWllama();
  await engine(fake).ensureLoaded(TINY_LLAMA_MODEL_ID, new AbortController().signal);
  expect(fake.loadParams).not.toHaveProperty('cache_type_k');
  expect(fake.loadParams).not.toHaveProperty('cache_type_v');
  expect(fake.loadParams).not.toHaveProperty('flash_attn');
});

test('a model whose heads do not fit the catalog\'s cache is loaded again on f16, instead of crashing on its first token', async () => {
  const loads: FakeWllama[] = [];
  const e = new WllamaEngine({
    catalog: GGUF_CATALOG,
    modelBase: 'https://mirror.example/gguf',
    wasmUrl: 'https://app.example/assets/wllama.wasm',
    createWllama: () => {
      const fake = new FakeWllama({ meta: { 'general.architecture': 'llama', 'llama.embedding_length': '64', 'llama.attention.head_count': '4' } });
      loads.push(fake);
      return fake;
    },
  });
  await e.ensureLoaded(QWEN, new AbortController().signal);
  expect(loads).toHaveLength(2);
  expect(loads[0]!.loadParams).toMatchObject({ cache_type_k: 'q8_0' });
  expect(loads[0]!.calls).toContain('exit');
  expect(loads[1]!.loadParams).not.toHaveProperty('cache_type_k');
  // The model answers from the second load.
  const deltas = await collect(e.generate(request()));
  expect(deltas.map((d) => d.text).join('')).toBe('Hello world');
  expect(loads[1]!.calls).toContain('createCompletion');
});
