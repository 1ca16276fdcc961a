import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { chatFormats } from '../../chat/chat-formats';
import { modelFilesBase } from './download-probe';
import { MODEL_CATALOG, buildAppConfig, estimateDownloadBytes, findCatalogEntry, mirrorRecord, resolveVariant, toModelInfo } from './catalog';

const prebuiltIds = new Set(prebuiltAppConfig.model_list.map((r) => r.model_id));

describe('model catalog', () => {
  it('lists only builds web-llm ships, both q4f16 and q4f32 of each', () => {
    for (const entry of MODEL_CATALOG) {
      expect(prebuiltIds.has(entry.variants.q4f16.modelId), entry.variants.q4f16.modelId).toBe(true);
      expect(prebuiltIds.has(entry.variants.q4f32.modelId), entry.variants.q4f32.modelId).toBe(true);
      expect(entry.variants.q4f16.modelId).toMatch(/q4f16_1/);
      expect(entry.variants.q4f32.modelId).toMatch(/q4f32_1/);
      expect(entry.id).toBe(entry.variants.q4f16.modelId);
    }
  });

  it('covers the families issue 4 asks for, reasoning only for Qwen3', () => {
    const ids = MODEL_CATALOG.map((e) => e.id);
    for (const id of [
      'Qwen3-0.6B-q4f16_1-MLC',
      'Qwen3-1.7B-q4f16_1-MLC',
      'Qwen3-4B-q4f16_1-MLC',
      'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
      'Qwen2.5-1.5B-Instruct-q4f16_1-MLC',
      'Llama-3.2-1B-Instruct-q4f16_1-MLC',
      'Llama-3.2-3B-Instruct-q4f16_1-MLC',
      'SmolLM2-360M-Instruct-q4f16_1-MLC',
      'SmolLM2-1.7B-Instruct-q4f16_1-MLC',
      'Phi-3.5-mini-instruct-q4f16_1-MLC',
      'gemma-2-2b-it-q4f16_1-MLC',
    ])
      expect(ids).toContain(id);
    for (const entry of MODEL_CATALOG) expect(entry.capabilities.reasoning).toBe(entry.chat_format === 'qwen3');
    expect(findCatalogEntry(MODEL_CATALOG, 'Qwen3-4B-q4f16_1-MLC')?.capabilities).toEqual({ tools: true, reasoning: true });
    expect(findCatalogEntry(MODEL_CATALOG, 'gemma-2-2b-it-q4f16_1-MLC')?.capabilities).toEqual({ tools: false, reasoning: false });
  });

  it('names a chat format that exists in chat/', () => {
    for (const entry of MODEL_CATALOG) expect(Object.keys(chatFormats), entry.id).toContain(entry.chat_format);
  });

  it("takes VRAM and context window from web-llm's records", () => {
    const qwen = findCatalogEntry(MODEL_CATALOG, 'Qwen3-1.7B-q4f16_1-MLC')!;
    const record = prebuiltAppConfig.model_list.find((r) => r.model_id === 'Qwen3-1.7B-q4f16_1-MLC')!;
    expect(qwen.variants.q4f16.vramBytes).toBe(Math.round(record.vram_required_MB! * 1024 * 1024));
    expect(qwen.context_window).toBe(record.overrides?.context_window_size);
    for (const entry of MODEL_CATALOG) {
      expect(entry.variants.q4f16.vramBytes).toBeGreaterThan(0);
      expect(entry.context_window).toBeGreaterThanOrEqual(1024);
    }
  });

  it('estimates download sizes from parameters and quantization', () => {
    const llama1b = findCatalogEntry(MODEL_CATALOG, 'Llama-3.2-1B-Instruct-q4f16_1-MLC')!;
    // 1.24e9 weights at 4.5 bits ≈ 0.70 GB, + tokenizer and library.
    expect(llama1b.variants.q4f16.downloadBytes).toBeGreaterThan(650e6);
    expect(llama1b.variants.q4f16.downloadBytes).toBeLessThan(800e6);
    for (const entry of MODEL_CATALOG) expect(entry.variants.q4f32.downloadBytes).toBeGreaterThan(entry.variants.q4f16.downloadBytes);
    expect(estimateDownloadBytes(1e9, 'q4f32_1')).toBe(625e6 + 15 * 1024 * 1024);
  });

  it('picks the q4f32 build when the adapter lacks shader-f16', () => {
    const entry = findCatalogEntry(MODEL_CATALOG, 'Qwen3-0.6B-q4f16_1-MLC')!;
    expect(resolveVariant(entry, true).modelId).toBe('Qwen3-0.6B-q4f16_1-MLC');
    expect(resolveVariant(entry, false).modelId).toBe('Qwen3-0.6B-q4f32_1-MLC');
    expect(entry.variants.q4f16.requiresShaderF16).toBe(true);
    expect(entry.variants.q4f32.requiresShaderF16).toBe(false);
    expect(toModelInfo(entry, false).vram_bytes).toBe(entry.variants.q4f32.vramBytes);
  });

  it('describes a model for /v1/models', () => {
    const info = toModelInfo(findCatalogEntry(MODEL_CATALOG, 'Qwen3-1.7B-q4f16_1-MLC')!);
    expect(info).toMatchObject({
      id: 'Qwen3-1.7B-q4f16_1-MLC',
      owned_by: 'Qwen',
      chat_format: 'qwen3',
      context_window: 4096,
      capabilities: { tools: true, reasoning: true },
    });
    expect(info.created).toBe(Date.UTC(2025, 3, 29) / 1000);
    expect(info.download_bytes).toBeGreaterThan(0);
    expect(info.hidden).toBeUndefined();
  });
});

describe('AppConfig and model source', () => {
  it("keeps web-llm's URLs without a modelBase, and does not touch prebuiltAppConfig", () => {
    const before = JSON.stringify(prebuiltAppConfig);
    const config = buildAppConfig(MODEL_CATALOG);
    expect(config.model_list).toHaveLength(MODEL_CATALOG.length * 2);
    const record = config.model_list.find((r) => r.model_id === 'Qwen3-1.7B-q4f32_1-MLC')!;
    expect(record.model).toBe('https://huggingface.co/mlc-ai/Qwen3-1.7B-q4f32_1-MLC');
    expect(record.model_lib).toMatch(/^https:\/\/raw\.githubusercontent\.com\/.*Qwen3-1\.7B-q4f32_1_cs1k-webgpu\.wasm$/);
    expect(JSON.stringify(prebuiltAppConfig)).toBe(before);
  });

  it('rewrites weights and library URLs onto a mirror', () => {
    const config = buildAppConfig(MODEL_CATALOG, { modelBase: 'https://mirror.example/models/' });
    const record = config.model_list.find((r) => r.model_id === 'Qwen3-1.7B-q4f16_1-MLC')!;
    expect(record.model).toBe('https://mirror.example/models/Qwen3-1.7B-q4f16_1-MLC/resolve/main/');
    expect(record.model_lib).toBe('https://mirror.example/models/libs/Qwen3-1.7B-q4f16_1_cs1k-webgpu.wasm');
    // web-llm's cleanModelUrl leaves such a URL as it is: files resolve right below it.
    expect(modelFilesBase(record.model)).toBe(record.model);
    expect(new URL('tensor-cache.json', modelFilesBase(record.model)).href).toBe(
      'https://mirror.example/models/Qwen3-1.7B-q4f16_1-MLC/resolve/main/tensor-cache.json',
    );
    expect(record.vram_required_MB).toBeGreaterThan(0);
    expect(record.overrides).toEqual({ context_window_size: 4096 });
    for (const r of config.model_list) expect(r.model.startsWith('https://mirror.example/models/')).toBe(true);
  });

  it('makes a same-origin mirror absolute (web-llm caches only absolute library URLs)', () => {
    const config = buildAppConfig(MODEL_CATALOG, { modelBase: '/models', origin: 'http://127.0.0.1:4173/app/index.html' });
    const record = config.model_list.find((r) => r.model_id === 'gemma-2-2b-it-q4f32_1-MLC')!;
    expect(record.model).toBe('http://127.0.0.1:4173/models/gemma-2-2b-it-q4f32_1-MLC/resolve/main/');
    expect(record.model_lib).toBe('http://127.0.0.1:4173/models/libs/gemma-2-2b-it-q4f32_1_cs1k-webgpu.wasm');
  });

  it('uses the repository name of a record whose model_id differs (the -1k builds)', () => {
    const record = prebuiltAppConfig.model_list.find((r) => r.model_id === 'Phi-3.5-mini-instruct-q4f16_1-MLC-1k')!;
    expect(mirrorRecord(record, 'https://m.example').model).toBe('https://m.example/Phi-3.5-mini-instruct-q4f16_1-MLC/resolve/main/');
    expect(mirrorRecord({ ...record, model: 'https://huggingface.co/mlc-ai/X-MLC/resolve/v2/' }, 'https://m.example').model).toBe(
      'https://m.example/X-MLC/resolve/main/',
    );
  });
});
