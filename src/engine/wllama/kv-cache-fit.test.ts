import { expect, test } from 'vitest';
import { kvCacheFits } from './kv-cache-fit';

const llama = (embedding: number, heads: number, extra: Record<string, string> = {}) => ({
  'general.architecture': 'llama',
  'llama.embedding_length': String(embedding),
  'llama.attention.head_count': String(heads),
  ...extra,
});

test('heads of 64 or 128 fit q8_0 blocks; 16- and 8-wide heads do not', () => {
  expect(kvCacheFits(llama(896, 14), 'q8_0')).toBe(true); // Qwen2.5 0.5B: 64
  expect(kvCacheFits(llama(2048, 16), 'q8_0')).toBe(true); // 128
  expect(kvCacheFits(llama(64, 4), 'q8_0')).toBe(false); // test-tiny-llama: 16
  expect(kvCacheFits(llama(64, 8), 'q8_0')).toBe(false); // stories260K: 8
  expect(kvCacheFits(llama(64, 4), 'f16')).toBe(true);
});

test('an explicit key/value length wins over embedding ÷ heads (Qwen3: 1024 ÷ 16 = 64, heads of 128)', () => {
  expect(kvCacheFits(llama(1024, 16, { 'llama.attention.key_length': '128', 'llama.attention.value_length': '128' }), 'q8_0')).toBe(true);
  expect(kvCacheFits(llama(1024, 16, { 'llama.attention.key_length': '128', 'llama.attention.value_length': '48' }), 'q8_0')).toBe(false);
});

test('metadata it cannot read does not fit a quantized cache', () => {
  expect(kvCacheFits({}, 'q8_0')).toBe(false);
  expect(kvCacheFits({ 'general.architecture': 'llama' }, 'q8_0')).toBe(false);
});
