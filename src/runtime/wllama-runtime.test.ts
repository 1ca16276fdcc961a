import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { chatFormats } from '../chat/chat-formats';
import { GGUF_CATALOG, TINY_LLAMA_MODEL_ID } from '../engine/wllama/gguf-catalog';
import { ScriptedEngine } from '../engine/scripted-engine';
import type { WebGpuSupport } from '../engine/webgpu-support';
import { createResponsesServer } from '../server/responses-server';
import { openIdbStore } from '../store/idb-store';
import { createWllamaEngine } from './wllama-runtime';
import { preferredEngine } from './preferred-engine';

const GPU: WebGpuSupport = {
  usable: true,
  shaderF16: true,
  fallbackAdapter: false,
  adapter: {},
  limits: { maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 30, maxComputeWorkgroupStorageSize: 32768, maxStorageBuffersPerShaderStage: 10 },
};

describe('preferredEngine', () => {
  it('is web-llm with a usable hardware adapter, wllama otherwise', () => {
    expect(preferredEngine(GPU)).toBe('web-llm');
    expect(preferredEngine({ ...GPU, fallbackAdapter: true })).toBe('wllama'); // SwiftShader: minutes per token
    expect(preferredEngine({ usable: false, shaderF16: false, cause: 'no_adapter', reason: 'none' })).toBe('wllama');
    expect(preferredEngine(null)).toBe('wllama'); // detection failed or timed out
    expect(preferredEngine(undefined)).toBe('wllama');
  });
});

describe('createWllamaEngine', () => {
  it('serves the GGUF catalog, and the hidden test models only with test models on', () => {
    const plain = createWllamaEngine({ wasmUrl: 'https://app.example/assets/wllama.wasm', testModels: false }).models().map((m) => m.id);
    expect(plain).toEqual(GGUF_CATALOG.map((e) => e.id));
    const withTests = createWllamaEngine({ wasmUrl: 'https://app.example/assets/wllama.wasm', testModels: true }).models();
    expect(withTests.find((m) => m.id === TINY_LLAMA_MODEL_ID)).toMatchObject({ hidden: true, chat_format: 'raw-completion' });
  });
});

describe('/v1/models recommended', () => {
  it('marks the models of the preferred engine, and no others', async () => {
    const store = await openIdbStore({ name: `wllama-runtime-${Date.now()}-${Math.random()}` });
    const server = await createResponsesServer({
      store,
      engines: [new ScriptedEngine(), createWllamaEngine({ wasmUrl: 'https://app.example/assets/wllama.wasm', testModels: true })],
      formats: chatFormats,
      preferredEngine: 'wllama',
    });
    const body = (await (await server.fetch(new Request('http://x/v1/models'))).json()) as { data: Array<{ id: string; engine: string; recommended: boolean }> };
    for (const model of body.data) expect(model.recommended, model.id).toBe(model.engine === 'wllama');
    expect(body.data.some((m) => m.recommended)).toBe(true);
    const one = (await (await server.fetch(new Request(`http://x/v1/models/${TINY_LLAMA_MODEL_ID}`))).json()) as { recommended: boolean; engine: string };
    expect(one).toMatchObject({ engine: 'wllama', recommended: true });
    await server.close();
  });
});
