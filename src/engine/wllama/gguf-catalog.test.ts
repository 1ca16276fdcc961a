import { describe, expect, it } from 'vitest';
import { chatFormats } from '../../chat/chat-formats';
import { GGUF_CATALOG, GGUF_TEST_CATALOG, ggufModelInfo, ggufUrl } from './gguf-catalog';
import { MODEL_CATALOG } from '../webllm/catalog';

describe('GGUF catalog', () => {
  const all = [...GGUF_CATALOG, ...GGUF_TEST_CATALOG];

  it('has distinct ids, none shared with web-llm, each with a registered chat format', () => {
    const ids = all.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const webllm = new Set(MODEL_CATALOG.map((e) => e.id));
    for (const entry of all) {
      expect(webllm.has(entry.id)).toBe(false);
      expect(chatFormats[entry.chat_format], entry.id).toBeDefined();
      expect(entry.file).toMatch(/\.gguf$/);
    }
  });

  it('lists the small instruct models at Q4_K_M, visible, with a Hugging Face source', () => {
    expect(GGUF_CATALOG.map((e) => [e.id, e.chat_format, e.file])).toEqual([
      ['Qwen3-0.6B-Q4_K_M-GGUF', 'qwen3', 'Qwen3-0.6B-Q4_K_M.gguf'],
      ['Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF', 'qwen', 'Qwen2.5-0.5B-Instruct-Q4_K_M.gguf'],
      ['Qwen2.5-1.5B-Instruct-Q4_K_M-GGUF', 'qwen', 'Qwen2.5-1.5B-Instruct-Q4_K_M.gguf'],
      ['SmolLM2-360M-Instruct-Q4_K_M-GGUF', 'smollm2', 'SmolLM2-360M-Instruct-Q4_K_M.gguf'],
      ['Llama-3.2-1B-Instruct-Q4_K_M-GGUF', 'llama3', 'Llama-3.2-1B-Instruct-Q4_K_M.gguf'],
    ]);
    for (const entry of GGUF_CATALOG) {
      expect(entry.hidden).toBeUndefined();
      expect(entry.repo).toBeDefined();
      expect(entry.downloadBytes).toBeGreaterThan(100e6);
    }
  });

  it('gives q8_0 KV caches to the models with heads of 64 or 128, never to the tiny test models (16- and 8-wide heads)', () => {
    expect([...GGUF_CATALOG, ...GGUF_TEST_CATALOG].filter((e) => e.kv_cache === 'q8_0').map((e) => e.id)).toEqual([...GGUF_CATALOG.map((e) => e.id), 'test-bench-llama']);
  });

  it('hides the test models and serves them from the mirror only', () => {
    expect(GGUF_TEST_CATALOG.map((e) => [e.id, e.chat_format, e.file, e.hidden])).toEqual([
      ['test-tiny-llama', 'raw-completion', 'test-tiny-llama.gguf', true],
      ['test-stories260k', 'raw-completion', 'stories260K.gguf', true],
      ['test-stories260k-qwen', 'qwen', 'stories260K.gguf', true],
      ['test-tiny-chat', 'chatml-plain', 'test-tiny-chat.gguf', true],
      ['test-bench-llama', 'chatml-plain', 'test-bench-llama.gguf', true],
    ]);
    for (const entry of GGUF_TEST_CATALOG) expect(ggufUrl(entry)).toBeNull();
  });

  it('builds file URLs from a mirror (absolute or relative) or Hugging Face', () => {
    const qwen = GGUF_CATALOG[1]!;
    expect(ggufUrl(qwen, 'https://m.example/models/')).toBe('https://m.example/models/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf');
    expect(ggufUrl(qwen, '/models', 'http://127.0.0.1:4173/app/?test-models')).toBe('http://127.0.0.1:4173/models/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf');
    expect(ggufUrl(qwen, 'models', 'http://127.0.0.1:4173/app/')).toBe('http://127.0.0.1:4173/app/models/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf');
    expect(ggufUrl(qwen)).toBe('https://huggingface.co/bartowski/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf');
  });

  it('shows entries as ModelInfo, with the human label /v1/models passes on to the picker', () => {
    expect(ggufModelInfo(GGUF_TEST_CATALOG[0]!, 512)).toEqual({
      id: 'test-tiny-llama',
      created: 1_700_000_000,
      owned_by: 'local-test',
      label: 'Tiny random llama (test)',
      context_window: 512,
      chat_format: 'raw-completion',
      download_bytes: 492_864,
      capabilities: { tools: false, reasoning: false },
      hidden: true,
    });
  });
});
