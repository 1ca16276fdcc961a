/**
 * The curated catalog of real models: small instruct models that web-llm ships prebuilt
 * (`prebuiltAppConfig.model_list` of the pinned `@mlc-ai/web-llm`), with what `/v1/models`
 * and the UI show about them, and the web-llm records the adapter loads.
 *
 * Where the numbers come from:
 * - `vram_bytes`, `context_window`: web-llm's own record of the variant (`vram_required_MB`,
 *   `overrides.context_window_size`), from a copy of the pinned web-llm's records
 *   (`prebuilt-records.ts`: web-llm itself is only loaded to run a model).
 *   web-llm allocates the KV cache for that window (4096 tokens for every entry, although
 *   the models were trained for more) and measured `vram_required_MB` with it.
 * - `download_bytes`: web-llm's records carry no file sizes, so this is an estimate: the
 *   parameter count from the model card times the bits per weight of the quantization
 *   (`q4f16_1`: 4-bit weights + one f16 scale per group of 32 = 4.5 bits; `q4f32_1`: 4-bit
 *   + one f32 scale per 32 = 5 bits), plus ~15 MB for the tokenizer and the model library.
 *   Good to ±10%; web-llm reports the real byte counts while it downloads.
 */
import type { AppConfig, ModelRecord } from '@mlc-ai/web-llm';
import { PREBUILT_RECORDS } from './prebuilt-records';
import type { ModelInfo } from '../../ports/engine';

export type Quantization = 'q4f16_1' | 'q4f32_1';

/** One web-llm build of a model. */
export interface ModelVariant {
  /** web-llm's `model_id`, the key of its `ModelRecord` and of its cache entries. */
  modelId: string;
  quantization: Quantization;
  downloadBytes: number;
  vramBytes: number;
  /** The WebGPU features web-llm requires (`shader-f16` for f16 builds, declared or not). */
  requiresShaderF16: boolean;
}

export interface CatalogEntry {
  /** Our model id: web-llm's `model_id` of the q4f16 build (the id clients send). */
  id: string;
  /** Human name for the UI. */
  label: string;
  owned_by: string;
  /** Unix seconds: the model's release date, stable per entry. */
  created: number;
  /** Name of the `chat/` format that renders prompts and parses output. */
  chat_format: string;
  /** Parameters, from the model card. */
  parameters: number;
  context_window: number;
  capabilities: { tools: boolean; reasoning: boolean };
  /** A vision model (web-llm's `ModelType.VLM`): it reads `input_image` parts. */
  vision: boolean;
  /**
   * Whether web-llm's conversation template of this model has a `tool` role (only the
   * Llama 3.1+ template does: `ipython`). Other templates throw on a `tool` message, so
   * the adapter sends tool results as `user` messages for them.
   */
  nativeToolRole: boolean;
  variants: { q4f16: ModelVariant; q4f32: ModelVariant };
}

interface EntrySpec {
  label: string;
  owned_by: string;
  released: string;
  chat_format: string;
  parameters: number;
  tools: boolean;
  reasoning: boolean;
  nativeToolRole?: boolean;
  vision?: boolean;
  q4f16: string;
  q4f32: string;
}

const SPECS: EntrySpec[] = [
  { label: 'Qwen3 0.6B', owned_by: 'Qwen', released: '2025-04-29', chat_format: 'qwen3', parameters: 0.6e9, tools: true, reasoning: true, q4f16: 'Qwen3-0.6B-q4f16_1-MLC', q4f32: 'Qwen3-0.6B-q4f32_1-MLC' },
  { label: 'Qwen3 1.7B', owned_by: 'Qwen', released: '2025-04-29', chat_format: 'qwen3', parameters: 1.72e9, tools: true, reasoning: true, q4f16: 'Qwen3-1.7B-q4f16_1-MLC', q4f32: 'Qwen3-1.7B-q4f32_1-MLC' },
  { label: 'Qwen3 4B', owned_by: 'Qwen', released: '2025-04-29', chat_format: 'qwen3', parameters: 4.02e9, tools: true, reasoning: true, q4f16: 'Qwen3-4B-q4f16_1-MLC', q4f32: 'Qwen3-4B-q4f32_1-MLC' },
  { label: 'Qwen2.5 0.5B Instruct', owned_by: 'Qwen', released: '2024-09-19', chat_format: 'qwen', parameters: 0.49e9, tools: true, reasoning: false, q4f16: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', q4f32: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' },
  { label: 'Qwen2.5 1.5B Instruct', owned_by: 'Qwen', released: '2024-09-19', chat_format: 'qwen', parameters: 1.54e9, tools: true, reasoning: false, q4f16: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', q4f32: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC' },
  { label: 'Llama 3.2 1B Instruct', owned_by: 'meta-llama', released: '2024-09-25', chat_format: 'llama3', parameters: 1.24e9, tools: true, reasoning: false, nativeToolRole: true, q4f16: 'Llama-3.2-1B-Instruct-q4f16_1-MLC', q4f32: 'Llama-3.2-1B-Instruct-q4f32_1-MLC' },
  { label: 'Llama 3.2 3B Instruct', owned_by: 'meta-llama', released: '2024-09-25', chat_format: 'llama3', parameters: 3.21e9, tools: true, reasoning: false, nativeToolRole: true, q4f16: 'Llama-3.2-3B-Instruct-q4f16_1-MLC', q4f32: 'Llama-3.2-3B-Instruct-q4f32_1-MLC' },
  { label: 'SmolLM2 360M Instruct', owned_by: 'HuggingFaceTB', released: '2024-11-01', chat_format: 'smollm2', parameters: 0.362e9, tools: false, reasoning: false, q4f16: 'SmolLM2-360M-Instruct-q4f16_1-MLC', q4f32: 'SmolLM2-360M-Instruct-q4f32_1-MLC' },
  { label: 'SmolLM2 1.7B Instruct', owned_by: 'HuggingFaceTB', released: '2024-11-01', chat_format: 'smollm2', parameters: 1.71e9, tools: false, reasoning: false, q4f16: 'SmolLM2-1.7B-Instruct-q4f16_1-MLC', q4f32: 'SmolLM2-1.7B-Instruct-q4f32_1-MLC' },
  { label: 'Phi-3.5 mini Instruct', owned_by: 'microsoft', released: '2024-08-20', chat_format: 'phi3', parameters: 3.82e9, tools: false, reasoning: false, q4f16: 'Phi-3.5-mini-instruct-q4f16_1-MLC', q4f32: 'Phi-3.5-mini-instruct-q4f32_1-MLC' },
  // web-llm's one prebuilt vision model (4.5 GB of GPU memory at q4f16, 7 GB at q4f32).
  { label: 'Phi-3.5 vision Instruct', owned_by: 'microsoft', released: '2024-08-20', chat_format: 'phi3', parameters: 4.15e9, tools: false, reasoning: false, vision: true, q4f16: 'Phi-3.5-vision-instruct-q4f16_1-MLC', q4f32: 'Phi-3.5-vision-instruct-q4f32_1-MLC' },
  { label: 'Gemma 2 2B Instruct', owned_by: 'google', released: '2024-07-31', chat_format: 'gemma', parameters: 2.61e9, tools: false, reasoning: false, q4f16: 'gemma-2-2b-it-q4f16_1-MLC', q4f32: 'gemma-2-2b-it-q4f32_1-MLC' },
];

const BITS_PER_WEIGHT: Record<Quantization, number> = { q4f16_1: 4.5, q4f32_1: 5 };
/** Tokenizer files + the compiled model library, roughly. */
const DOWNLOAD_OVERHEAD_BYTES = 15 * 1024 * 1024;
const MIB = 1024 * 1024;

/** Estimated bytes to download for `parameters` weights at `quantization` (see the header). */
export function estimateDownloadBytes(parameters: number, quantization: Quantization): number {
  return Math.round((parameters * BITS_PER_WEIGHT[quantization]) / 8) + DOWNLOAD_OVERHEAD_BYTES;
}

/** The web-llm builds the catalog uses (`PREBUILT_RECORDS` holds their records). */
export const CATALOG_BUILD_IDS: readonly string[] = SPECS.flatMap((spec) => [spec.q4f16, spec.q4f32]);

function recordOf(records: readonly ModelRecord[], modelId: string): ModelRecord {
  const record = records.find((r) => r.model_id === modelId);
  // The web-llm version is pinned; the catalog test checks every id, so this only fires on an upgrade.
  if (!record) throw new Error(`model-catalog: web-llm has no prebuilt record for ${modelId}; update the catalog.`);
  return record;
}

function variantOf(record: ModelRecord, quantization: Quantization, parameters: number): ModelVariant {
  return {
    modelId: record.model_id,
    quantization,
    downloadBytes: estimateDownloadBytes(parameters, quantization),
    vramBytes: Math.round((record.vram_required_MB ?? 0) * MIB),
    requiresShaderF16: quantization === 'q4f16_1' || (record.required_features ?? []).includes('shader-f16'),
  };
}

/** Builds catalog entries from specs and web-llm's records (exported for tests). */
export function buildCatalog(records: readonly ModelRecord[] = PREBUILT_RECORDS): CatalogEntry[] {
  return SPECS.map((spec) => {
    const f16 = recordOf(records, spec.q4f16);
    const f32 = recordOf(records, spec.q4f32);
    return {
      id: spec.q4f16,
      label: spec.label,
      owned_by: spec.owned_by,
      created: Math.floor(Date.parse(`${spec.released}T00:00:00Z`) / 1000),
      chat_format: spec.chat_format,
      parameters: spec.parameters,
      context_window: f16.overrides?.context_window_size ?? 4096,
      capabilities: { tools: spec.tools, reasoning: spec.reasoning },
      nativeToolRole: spec.nativeToolRole ?? false,
      vision: spec.vision ?? false,
      variants: { q4f16: variantOf(f16, 'q4f16_1', spec.parameters), q4f32: variantOf(f32, 'q4f32_1', spec.parameters) },
    };
  });
}

export const MODEL_CATALOG: readonly CatalogEntry[] = buildCatalog();

export function findCatalogEntry(catalog: readonly CatalogEntry[], id: string): CatalogEntry | undefined {
  return catalog.find((entry) => entry.id === id);
}

/**
 * The build to load on this device: f16 weights need the `shader-f16` WebGPU feature;
 * without it (e.g. SwiftShader, many older GPUs) the q4f32 build runs instead.
 */
export function resolveVariant(entry: CatalogEntry, hasShaderF16: boolean): ModelVariant {
  return hasShaderF16 ? entry.variants.q4f16 : entry.variants.q4f32;
}

/** What `/v1/models` shows; sizes are those of the build this device would load. */
export function toModelInfo(entry: CatalogEntry, hasShaderF16 = true): ModelInfo {
  const variant = resolveVariant(entry, hasShaderF16);
  return {
    id: entry.id,
    label: entry.label,
    created: entry.created,
    owned_by: entry.owned_by,
    context_window: entry.context_window,
    chat_format: entry.chat_format,
    download_bytes: variant.downloadBytes,
    vram_bytes: variant.vramBytes,
    capabilities: { ...entry.capabilities },
    ...(entry.vision ? { input_modalities: ['text', 'image'] } : {}),
  };
}

export interface AppConfigOptions {
  /**
   * Base URL of a self-hosted or same-origin mirror of weights and model libraries. The
   * mirror keeps the layout web-llm uses on Hugging Face, so a `git clone` of each
   * `mlc-ai/<repo>` and a copy of the `.wasm` files is all it takes:
   *
   * ```
   * {modelBase}/{repo}/resolve/main/mlc-chat-config.json
   * {modelBase}/{repo}/resolve/main/tokenizer.json        (and the other `tokenizer_files`)
   * {modelBase}/{repo}/resolve/main/tensor-cache.json     (web-llm 0.2.86 reads this name)
   * {modelBase}/{repo}/resolve/main/params_shard_*.bin    (the `dataPath`s it lists)
   * {modelBase}/libs/{wasm file name}                     (e.g. Qwen3-1.7B-q4f16_1_cs1k-webgpu.wasm)
   * ```
   *
   * `{repo}` is the last path segment of web-llm's `model` URL, which equals the `model_id`
   * for every catalog entry (e.g. `Qwen3-1.7B-q4f16_1-MLC`). web-llm appends
   * `resolve/main/` to a model URL that lacks a `/resolve/<branch>/` part (`cleanModelUrl`);
   * we write it out so the URLs are exactly the ones above.
   */
  modelBase?: string;
  /**
   * Base that a relative `modelBase` resolves against (default: `location.href`). URLs are
   * made absolute on purpose: web-llm fetches a relative `model_lib` with plain `fetch`,
   * bypassing its Cache Storage (no offline copy) and its HTTP status check.
   */
  origin?: string;
  /** web-llm's records to start from (default: the copy of `prebuiltAppConfig.model_list`'s, `PREBUILT_RECORDS`). */
  records?: readonly ModelRecord[];
}

function absoluteBase(modelBase: string, origin: string | undefined): string {
  const base = origin ?? (typeof location !== 'undefined' ? location.href : undefined);
  const url = base ? new URL(modelBase, base) : new URL(modelBase);
  return url.href.replace(/\/+$/, '');
}

/** A web-llm record pointed at a mirror (see `AppConfigOptions.modelBase`); the input is not changed. */
export function mirrorRecord(record: ModelRecord, modelBase: string): ModelRecord {
  const base = modelBase.replace(/\/+$/, '');
  const parts = new URL(record.model).pathname.split('/').filter(Boolean);
  const resolveAt = parts.indexOf('resolve');
  const repo = resolveAt > 0 ? parts[resolveAt - 1] : parts[parts.length - 1];
  const wasmName = record.model_lib.slice(record.model_lib.lastIndexOf('/') + 1);
  return { ...record, model: `${base}/${repo}/resolve/main/`, model_lib: `${base}/libs/${wasmName}` };
}

/** The AppConfig web-llm loads catalog models with: both builds of every entry, mirrored when asked. */
export function buildAppConfig(catalog: readonly CatalogEntry[], options: AppConfigOptions = {}): AppConfig {
  const records = options.records ?? PREBUILT_RECORDS;
  const base = options.modelBase ? absoluteBase(options.modelBase, options.origin) : null;
  const model_list = catalog.flatMap((entry) =>
    [entry.variants.q4f16, entry.variants.q4f32].map((variant) => {
      const record = recordOf(records, variant.modelId);
      return base ? mirrorRecord(record, base) : { ...record };
    }),
  );
  return { model_list, cacheBackend: 'cache' };
}
