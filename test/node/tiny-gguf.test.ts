import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readF32Tensor, readGguf } from '../fixtures/gguf-reader';
import { GGML_TYPE_F32, writeGguf } from '../fixtures/gguf-writer';
import { TINY_GGUF_REPLY, TINY_LLAMA, makeTinyGguf, tinyGgufCount, tinySuccessors, tinyVocab } from '../fixtures/make-tiny-gguf';
import { HAVE_STORIES, STORIES_ABSENT, STORIES_PATH } from '../fixtures/stories260k';


describe('GGUF writer', () => {
  it('round-trips every value type, tensor infos and data, with aligned offsets', () => {
    const bytes = writeGguf({
      metadata: [
        ['a.u32', { type: 'u32', value: 4_000_000_000 }],
        ['a.i32', { type: 'i32', value: -7 }],
        ['a.f32', { type: 'f32', value: 0.5 }],
        ['a.u64', { type: 'u64', value: 2n ** 40n }],
        ['a.bool', { type: 'bool', value: true }],
        ['a.string', { type: 'string', value: 'héllo ▁' }],
        ['a.strings', { type: 'string[]', value: ['x', '', '<0x0A>'] }],
        ['a.floats', { type: 'f32[]', value: [1, -2.5] }],
        ['a.ints', { type: 'i32[]', value: [3, -4] }],
      ],
      tensors: [
        { name: 'odd', dims: [3], data: Float32Array.from([1, 2, 3]) },
        { name: 'matrix', dims: [2, 3], data: Float32Array.from([0, 1, 2, 3, 4, 5]) },
      ],
    });
    const parsed = readGguf(bytes);
    expect(parsed.version).toBe(3);
    expect(Object.fromEntries(parsed.metadata)).toEqual({
      'a.u32': 4_000_000_000,
      'a.i32': -7,
      'a.f32': 0.5,
      'a.u64': 2n ** 40n,
      'a.bool': true,
      'a.string': 'héllo ▁',
      'a.strings': ['x', '', '<0x0A>'],
      'a.floats': [1, -2.5],
      'a.ints': [3, -4],
    });
    expect(parsed.tensors).toEqual([
      { name: 'odd', dims: [3], ggmlType: GGML_TYPE_F32, offset: 0 },
      { name: 'matrix', dims: [2, 3], ggmlType: GGML_TYPE_F32, offset: 32 },
    ]);
    expect(parsed.dataStart % 32).toBe(0);
    expect(bytes.length % 32).toBe(0);
    expect([...readF32Tensor(bytes, parsed, 'matrix')]).toEqual([0, 1, 2, 3, 4, 5]);
    expect([...readF32Tensor(bytes, parsed, 'odd')]).toEqual([1, 2, 3]);
  });

  it('refuses a tensor whose data does not match its dims', () => {
    expect(() => writeGguf({ metadata: [], tensors: [{ name: 't', dims: [2, 2], data: new Float32Array(3) }] })).toThrow(/need 4/);
  });
});

describe('the tiny llama GGUF', () => {
  const bytes = makeTinyGguf();
  const parsed = readGguf(bytes);
  const meta = (key: string) => parsed.metadata.get(key);

  it('is deterministic for a seed', () => {
    expect(Buffer.from(makeTinyGguf()).equals(Buffer.from(bytes))).toBe(true);
    expect(Buffer.from(makeTinyGguf({ seed: 2 })).equals(Buffer.from(bytes))).toBe(false);
  });

  it('carries a chat template only when asked to', () => {
    expect(parsed.metadata.has('tokenizer.chat_template')).toBe(false);
    const template = "{% for m in messages %}{{ m.content }}{% endfor %}";
    expect(readGguf(makeTinyGguf({ chatTemplate: template })).metadata.get('tokenizer.chat_template')).toBe(template);
  });

  it('carries the llama hyperparameters and a SentencePiece vocabulary llama.cpp requires', () => {
    const { nEmbd, nLayer, nHead, nHeadKv, nFf, contextLength } = TINY_LLAMA;
    expect(meta('general.architecture')).toBe('llama');
    expect(meta('llama.context_length')).toBe(contextLength);
    expect(meta('llama.embedding_length')).toBe(nEmbd);
    expect(meta('llama.block_count')).toBe(nLayer);
    expect(meta('llama.feed_forward_length')).toBe(nFf);
    expect(meta('llama.attention.head_count')).toBe(nHead);
    expect(meta('llama.attention.head_count_kv')).toBe(nHeadKv);
    expect(meta('llama.rope.dimension_count')).toBe(nEmbd / nHead);
    expect(meta('llama.attention.layer_norm_rms_epsilon')).toBeCloseTo(1e-5);
    expect(meta('tokenizer.ggml.model')).toBe('llama');
    const tokens = meta('tokenizer.ggml.tokens') as string[];
    expect(tokens.length).toBe(meta('llama.vocab_size'));
    expect((meta('tokenizer.ggml.scores') as number[]).length).toBe(tokens.length);
    expect((meta('tokenizer.ggml.token_type') as number[]).length).toBe(tokens.length);
    expect(tokens.slice(0, 5)).toEqual(['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>']);
    for (let b = 0; b < 256; b++) expect(tokens).toContain(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    expect(meta('tokenizer.ggml.bos_token_id')).toBe(1);
    expect(meta('tokenizer.ggml.eos_token_id')).toBe(2);
    expect(meta('tokenizer.ggml.add_bos_token')).toBe(true);
  });

  it('has every tensor llama.cpp creates for LLM_ARCH_LLAMA, F32, with its shape, laid out without overlap', () => {
    const { nEmbd, nFf } = TINY_LLAMA;
    const nVocab = tinyVocab().tokens.length;
    const dims = Object.fromEntries(parsed.tensors.map((t) => [t.name, t.dims]));
    expect(dims['token_embd.weight']).toEqual([nEmbd, nVocab]);
    expect(dims['output_norm.weight']).toEqual([nEmbd]);
    expect(dims['output.weight']).toEqual([nEmbd, nVocab]);
    for (const l of [0, 1]) {
      expect(dims[`blk.${l}.attn_norm.weight`]).toEqual([nEmbd]);
      expect(dims[`blk.${l}.attn_q.weight`]).toEqual([nEmbd, nEmbd]);
      expect(dims[`blk.${l}.attn_k.weight`]).toEqual([nEmbd, 32]);
      expect(dims[`blk.${l}.attn_v.weight`]).toEqual([nEmbd, 32]);
      expect(dims[`blk.${l}.attn_output.weight`]).toEqual([nEmbd, nEmbd]);
      expect(dims[`blk.${l}.ffn_norm.weight`]).toEqual([nEmbd]);
      expect(dims[`blk.${l}.ffn_gate.weight`]).toEqual([nEmbd, nFf]);
      expect(dims[`blk.${l}.ffn_up.weight`]).toEqual([nEmbd, nFf]);
      expect(dims[`blk.${l}.ffn_down.weight`]).toEqual([nFf, nEmbd]);
    }
    expect(parsed.tensors).toHaveLength(3 + 2 * 9);
    let end = 0;
    for (const t of parsed.tensors) {
      expect(t.ggmlType).toBe(GGML_TYPE_F32);
      expect(t.offset % 32).toBe(0);
      expect(t.offset).toBeGreaterThanOrEqual(end);
      end = t.offset + t.dims.reduce((a, b) => a * b, 1) * 4;
    }
    expect(parsed.dataStart + end).toBeLessThanOrEqual(bytes.length);
    expect([...readF32Tensor(bytes, parsed, 'output_norm.weight')].every((v) => v === 1)).toBe(true);
  });

  it('makes the designed successor the clear greedy choice of every token (blocks aside)', () => {
    const { nEmbd, rmsEps } = TINY_LLAMA;
    const embd = readF32Tensor(bytes, parsed, 'token_embd.weight');
    const output = readF32Tensor(bytes, parsed, 'output.weight');
    const next = tinySuccessors();
    const nVocab = next.length;
    let worstMargin = Infinity;
    for (let t = 0; t < nVocab; t++) {
      const x = embd.subarray(t * nEmbd, (t + 1) * nEmbd);
      const rms = Math.sqrt(x.reduce((s, v) => s + v * v, 0) / nEmbd + rmsEps);
      const logits = Array.from({ length: nVocab }, (_, v) => {
        let dot = 0;
        for (let i = 0; i < nEmbd; i++) dot += output[v * nEmbd + i]! * (x[i]! / rms);
        return dot;
      });
      const best = logits.indexOf(Math.max(...logits));
      expect(best, `successor of ${t}`).toBe(next[t]);
      const runnerUp = Math.max(...logits.filter((_, v) => v !== best));
      worstMargin = Math.min(worstMargin, logits[best]! - runnerUp);
    }
    // The transformer blocks (weights ~0.04) move logits far less than this.
    expect(worstMargin).toBeGreaterThan(3);
  });

  it('documents the greedy outputs the e2e tests assert', () => {
    expect(TINY_GGUF_REPLY).toBe(' The quick brown fox jumps over the lazy dog.');
    expect(tinyGgufCount(7, 12)).toBe('890123456789');
  });
});

describe('the reader on a file llama.cpp wrote', () => {
  it.skipIf(!HAVE_STORIES)(HAVE_STORIES ? 'parses stories260K.gguf' : `parses stories260K.gguf — skipped: ${STORIES_ABSENT}`, () => {
    const bytes = new Uint8Array(readFileSync(STORIES_PATH));
    const parsed = readGguf(bytes);
    expect(parsed.version).toBe(3);
    expect(parsed.metadata.get('general.architecture')).toBe('llama');
    expect(parsed.metadata.get('llama.embedding_length')).toBe(64);
    expect((parsed.metadata.get('tokenizer.ggml.tokens') as string[]).length).toBe(512);
    expect(parsed.tensors.map((t) => t.name)).toContain('blk.4.ffn_down.weight');
    const last = parsed.tensors.reduce((a, b) => (a.offset > b.offset ? a : b));
    expect(parsed.dataStart + last.offset).toBeLessThan(bytes.length);
  });
});
