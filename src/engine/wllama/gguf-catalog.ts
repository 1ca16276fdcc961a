/**
 * Models the wllama (llama.cpp on WebAssembly, CPU) engine serves: small instruct models as
 * single GGUF files at Q4_K_M, and hidden test models.
 *
 * Where the files come from: `{modelBase}/{file}` when a mirror is configured (one flat
 * folder of `.gguf` files), else Hugging Face, `https://huggingface.co/{repo}/resolve/main/{file}`.
 * File names are those the repos publish (bartowski's quantizations, unsloth's for Qwen3,
 * whose official repo has no Q4_K_M).
 *
 * Sizes (`downloadBytes`) are the repos' listed file sizes, rounded, as known when this
 * catalog was written (they cannot be checked from the build machines, which have no
 * internet): good to a few percent; wllama reports the real byte count while it downloads.
 *
 * `context_window` is the context llama.cpp is loaded with (the KV cache is allocated for
 * it up front, in WebAssembly memory): 4096, as for web-llm, although the models were trained
 * for more. Once a model is loaded the engine reports `min(n_ctx, n_ctx_train)` instead.
 *
 * `kv_cache: 'q8_0'` stores the KV cache as 8-bit blocks instead of f16. In WebAssembly that
 * is the fast one: f16 has no hardware conversion there, so attention over an f16 cache
 * converts every key and value it reads, and decoding slows as the context fills (with
 * ~2,000 tokens of context, 100M-parameter bench model, 2 threads: 6.4 tokens/s with f16,
 * 21 with q8_0; a prompt of that length prefills ~18% slower). It also halves the cache's
 * memory. llama.cpp's q8_0 blocks are 32 wide and it does not check the model against them:
 * set it only for models whose attention head size is a multiple of 32 (a 16-wide head
 * loads, then crashes the wasm on the first token). The catalog's models have heads of 64
 * (Qwen2.5 0.5B, SmolLM2, Llama 3.2) or 128 (Qwen3, Qwen2.5 1.5B).
 *
 * Ids end in `-GGUF` so they never collide with web-llm's (`…-q4f16_1-MLC`).
 */
import type { ModelInfo } from '../../ports/engine';
import type { KvCacheType } from './wllama-like';

export interface GgufCatalogEntry {
  /** Our model id (what clients send). */
  id: string;
  label: string;
  owned_by: string;
  /** Unix seconds: the model's release date. */
  created: number;
  /** Name of the `chat/` format that renders prompts and parses output. */
  chat_format: string;
  /** The GGUF file name, on the mirror and in the Hugging Face repo. */
  file: string;
  /** Hugging Face repository that publishes `file`; absent for test models (mirror only). */
  repo?: string;
  downloadBytes: number;
  context_window: number;
  /** The KV cache's element type (see above); absent: llama.cpp's f16. */
  kv_cache?: KvCacheType;
  capabilities: { tools: boolean; reasoning: boolean };
  /** Hidden from the UI's model picker (test models). */
  hidden?: boolean;
}

const MB = 1_000_000;

function released(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000);
}

export const GGUF_CATALOG: readonly GgufCatalogEntry[] = [
  {
    id: 'Qwen3-0.6B-Q4_K_M-GGUF',
    label: 'Qwen3 0.6B (CPU)',
    owned_by: 'Qwen',
    created: released('2025-04-29'),
    chat_format: 'qwen3',
    file: 'Qwen3-0.6B-Q4_K_M.gguf',
    repo: 'unsloth/Qwen3-0.6B-GGUF',
    downloadBytes: 397 * MB,
    context_window: 4096,
    kv_cache: 'q8_0',
    capabilities: { tools: true, reasoning: true },
  },
  {
    id: 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF',
    label: 'Qwen2.5 0.5B Instruct (CPU)',
    owned_by: 'Qwen',
    created: released('2024-09-19'),
    chat_format: 'qwen',
    file: 'Qwen2.5-0.5B-Instruct-Q4_K_M.gguf',
    repo: 'bartowski/Qwen2.5-0.5B-Instruct-GGUF',
    downloadBytes: 398 * MB,
    context_window: 4096,
    kv_cache: 'q8_0',
    capabilities: { tools: true, reasoning: false },
  },
  {
    id: 'Qwen2.5-1.5B-Instruct-Q4_K_M-GGUF',
    label: 'Qwen2.5 1.5B Instruct (CPU)',
    owned_by: 'Qwen',
    created: released('2024-09-19'),
    chat_format: 'qwen',
    file: 'Qwen2.5-1.5B-Instruct-Q4_K_M.gguf',
    repo: 'bartowski/Qwen2.5-1.5B-Instruct-GGUF',
    downloadBytes: 986 * MB,
    context_window: 4096,
    kv_cache: 'q8_0',
    capabilities: { tools: true, reasoning: false },
  },
  {
    id: 'SmolLM2-360M-Instruct-Q4_K_M-GGUF',
    label: 'SmolLM2 360M Instruct (CPU)',
    owned_by: 'HuggingFaceTB',
    created: released('2024-11-01'),
    chat_format: 'smollm2',
    file: 'SmolLM2-360M-Instruct-Q4_K_M.gguf',
    repo: 'bartowski/SmolLM2-360M-Instruct-GGUF',
    downloadBytes: 271 * MB,
    context_window: 4096,
    kv_cache: 'q8_0',
    capabilities: { tools: false, reasoning: false },
  },
  {
    id: 'Llama-3.2-1B-Instruct-Q4_K_M-GGUF',
    label: 'Llama 3.2 1B Instruct (CPU)',
    owned_by: 'meta-llama',
    created: released('2024-09-25'),
    chat_format: 'llama3',
    file: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    repo: 'bartowski/Llama-3.2-1B-Instruct-GGUF',
    downloadBytes: 808 * MB,
    context_window: 4096,
    kv_cache: 'q8_0',
    capabilities: { tools: true, reasoning: false },
  },
];

/** Id of the generated test GGUF (`test/fixtures/make-tiny-gguf.ts`). */
export const TINY_LLAMA_MODEL_ID = 'test-tiny-llama';
/** Id of `../shared/models/stories260K.gguf` when a test serves it. */
export const STORIES_MODEL_ID = 'test-stories260k';
/** Id of the tiny GGUF under a chat format that shows the whole conversation (KV-cache reuse across turns). */
export const TINY_CHAT_MODEL_ID = 'test-tiny-chat';
/** Id of the ~100M-parameter random GGUF of `npm run bench:cpu` (`test/fixtures/make-bench-gguf.ts`). */
export const BENCH_LLAMA_MODEL_ID = 'test-bench-llama';

/**
 * Hidden test models, served from the mirror only (`{modelBase}/{file}`): the runtime
 * registers them when test models are enabled, and a test puts the files there.
 */
export const GGUF_TEST_CATALOG: readonly GgufCatalogEntry[] = [
  {
    id: TINY_LLAMA_MODEL_ID,
    label: 'Tiny random llama (test)',
    owned_by: 'local-test',
    created: 1_700_000_000,
    chat_format: 'raw-completion',
    file: 'test-tiny-llama.gguf',
    downloadBytes: 492_864,
    context_window: 2048,
    capabilities: { tools: false, reasoning: false },
    hidden: true,
  },
  {
    id: STORIES_MODEL_ID,
    label: 'stories260K (test)',
    owned_by: 'local-test',
    created: 1_700_000_000,
    chat_format: 'raw-completion',
    file: 'stories260K.gguf',
    downloadBytes: 1_185_376,
    context_window: 2048,
    capabilities: { tools: false, reasoning: false },
    hidden: true,
  },
  {
    // The tiny model's bytes (a test writes them under this name too), prompted as ChatML:
    // every turn is in the prompt, so a later turn starts with the earlier one's tokens.
    id: TINY_CHAT_MODEL_ID,
    label: 'Tiny random llama, ChatML (test)',
    owned_by: 'local-test',
    created: 1_700_000_000,
    chat_format: 'chatml-plain',
    file: 'test-tiny-chat.gguf',
    downloadBytes: 492_864,
    context_window: 2048,
    capabilities: { tools: false, reasoning: false },
    hidden: true,
  },
  {
    id: BENCH_LLAMA_MODEL_ID,
    label: 'Random llama 100M, benchmark (test)',
    owned_by: 'local-test',
    created: 1_700_000_000,
    chat_format: 'chatml-plain',
    file: 'test-bench-llama.gguf',
    downloadBytes: 62_000_000, // at its default Q4_K_M; 108 MB at Q8_0
    context_window: 4096,
    kv_cache: 'q8_0',
    capabilities: { tools: false, reasoning: false },
    hidden: true,
  },
];

/**
 * Where `entry`'s file is fetched from: the mirror when `modelBase` is set, else its Hugging
 * Face repo; null when neither is available (a test model without a mirror).
 * A relative `modelBase` resolves against `origin` (default `location.href`): wllama keys its
 * cache by URL and fetches from a worker, so the URL must be absolute.
 */
export function ggufUrl(entry: Pick<GgufCatalogEntry, 'file' | 'repo'>, modelBase?: string, origin?: string): string | null {
  if (modelBase !== undefined) {
    const base = origin ?? (typeof location !== 'undefined' ? location.href : undefined);
    const dir = `${modelBase.replace(/\/+$/, '')}/`;
    const absolute = base ? new URL(dir, base) : new URL(dir);
    return new URL(encodeURIComponent(entry.file), absolute).href;
  }
  return entry.repo ? `https://huggingface.co/${entry.repo}/resolve/main/${encodeURIComponent(entry.file)}` : null;
}

/** What `/v1/models` shows; `contextWindow` overrides the catalog's once the model is loaded. */
export function ggufModelInfo(entry: GgufCatalogEntry, contextWindow?: number): ModelInfo {
  return {
    id: entry.id,
    created: entry.created,
    owned_by: entry.owned_by,
    // The picker shows this name; without it a CPU model reads as its raw id.
    label: entry.label,
    context_window: contextWindow ?? entry.context_window,
    chat_format: entry.chat_format,
    download_bytes: entry.downloadBytes,
    capabilities: { ...entry.capabilities },
    ...(entry.hidden ? { hidden: true } : {}),
  };
}
