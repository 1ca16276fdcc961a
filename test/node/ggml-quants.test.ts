import { describe, expect, it } from 'vitest';
import { TENSOR_LAYOUTS, f16Bits, f16Value, type TensorType } from '../fixtures/ggml-quants';
import { gaussian, prng } from '../fixtures/make-tiny-gguf';

const normal = gaussian(prng(7));
const sample = (n: number, scale = 0.05) => Float32Array.from({ length: n }, () => normal() * scale);
const maxError = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);

describe('ggml tensor layouts', () => {
  it('f16 bits round-trip the scales the quantizers write', () => {
    for (const v of [0, 1, -2.5, 0.000123, 65504, 6e-8]) expect(Math.abs(f16Value(f16Bits(v)) - v)).toBeLessThanOrEqual(Math.abs(v) / 1024 + 6e-8);
  });

  // Worst case per weight: half a quantization step of the block, plus what rounding the
  // sub-block scales to 6 (Q4_K) or 8 (Q6_K) bits adds; a layout mistake is off by far more.
  const bounds: Record<Exclude<TensorType, 'f32'>, number> = { q8_0: 0.0012, q4_k: 0.012, q6_k: 0.0035 };
  for (const [type, bound] of Object.entries(bounds) as Array<[Exclude<TensorType, 'f32'>, number]>) {
    it(`${type}: block size and bytes as llama.cpp reads them, and values that round-trip`, () => {
      const layout = TENSOR_LAYOUTS[type];
      expect([layout.blockWeights, layout.blockBytes, layout.ggmlType]).toEqual({ q8_0: [32, 34, 8], q4_k: [256, 144, 12], q6_k: [256, 210, 14] }[type]);
      const values = sample(4 * 256);
      const bytes = layout.encode(values);
      expect(bytes.length).toBe((values.length / layout.blockWeights) * layout.blockBytes);
      const back = layout.decode(bytes);
      expect(maxError(back, values)).toBeLessThan(bound);
      // Every weight lands in its own place: the decoded values follow the originals.
      const dot = back.reduce((s, v, i) => s + v * values[i]!, 0) / Math.sqrt(back.reduce((s, v) => s + v * v, 0) * values.reduce((s, v) => s + v * v, 0));
      expect(dot).toBeGreaterThan(type === 'q4_k' ? 0.99 : 0.999);
    });

    it(`${type}: a zero row stays exactly zero (the bench's never-sampled tokens)`, () => {
      const layout = TENSOR_LAYOUTS[type];
      expect([...layout.decode(layout.encode(new Float32Array(256)))].every((v) => v === 0)).toBe(true);
    });
  }

  it('q4_k: sub-blocks 4–7 keep scales above 15 (their high bits go into bytes 0–7)', () => {
    // One super-block whose last sub-blocks have the widest range, so their 6-bit scales use the top bits.
    const values = Float32Array.from({ length: 256 }, (_, i) => ((i % 7) - 3) * (i >= 128 ? 0.3 : 0.01));
    const back = TENSOR_LAYOUTS.q4_k.decode(TENSOR_LAYOUTS.q4_k.encode(values));
    // Half a step of the wide sub-blocks is 1.8 / 15 / 2 = 0.06; the narrow ones stay within theirs.
    expect(maxError(back.subarray(128), values.subarray(128))).toBeLessThan(0.065);
    expect(maxError(back.subarray(0, 128), values.subarray(0, 128))).toBeLessThan(0.006);
  });

  it('f32 is stored as little-endian floats', () => {
    const bytes = TENSOR_LAYOUTS.f32.encode(Float32Array.from([1, -2]));
    expect([...bytes]).toEqual([0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0]);
    expect([...TENSOR_LAYOUTS.f32.decode(bytes)]).toEqual([1, -2]);
  });
});
