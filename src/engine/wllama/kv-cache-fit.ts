/**
 * Whether a loaded model's attention heads fit a quantized KV cache. llama.cpp stores a
 * q8_0 cache in blocks of 32 values along each head and does not check that the head size
 * is a multiple of that: a model with 16-wide heads loads on such a cache and then crashes
 * the wasm on its first token. Read from the GGUF metadata wllama reports once a model is
 * loaded: `{arch}.attention.key_length` / `value_length` when the file states them, else
 * `embedding_length / head_count` (llama.cpp's own default).
 */
import type { KvCacheType } from './wllama-like';

const BLOCK: Record<KvCacheType, number> = { f16: 1, q8_0: 32 };

export function kvCacheFits(meta: Readonly<Record<string, string>>, type: KvCacheType): boolean {
  const arch = meta['general.architecture'];
  const num = (key: string) => (arch && meta[`${arch}.${key}`] !== undefined ? Number(meta[`${arch}.${key}`]) : NaN);
  const derived = num('embedding_length') / num('attention.head_count');
  const sizes = [num('attention.key_length'), num('attention.value_length')].map((n) => (Number.isFinite(n) ? n : derived));
  return sizes.every((n) => Number.isInteger(n) && n > 0 && n % BLOCK[type] === 0);
}
