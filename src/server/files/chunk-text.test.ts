import { expect, test } from 'vitest';
import { chunkText, estimateTokens } from './chunk-text';

test('chunks are about max tokens long, overlap by about the overlap, end at breaks, and cover the text', () => {
  const text = Array.from({ length: 300 }, (_, i) => `Sentence ${i} says something about topic ${i % 9}.`).join(' ');
  const chunks = chunkText(text, { max_chunk_size_tokens: 100, chunk_overlap_tokens: 50 });
  expect(chunks.length).toBeGreaterThan(10);
  for (const chunk of chunks.slice(0, -1)) {
    expect(estimateTokens(chunk)).toBeLessThanOrEqual(105);
    expect(estimateTokens(chunk)).toBeGreaterThan(45);
    expect(chunk.endsWith('.')).toBe(true);
  }
  // Consecutive chunks share text (the overlap), and every sentence is in some chunk.
  for (let i = 1; i < chunks.length; i++) expect(chunks[i - 1]!.includes(chunks[i]!.slice(0, 20))).toBe(true);
  for (let i = 0; i < 300; i++) expect(chunks.some((c) => c.includes(`Sentence ${i} `))).toBe(true);
});

test('no overlap, blank text, and Chinese text (about a token a character)', () => {
  expect(chunkText('   \n ', { max_chunk_size_tokens: 100, chunk_overlap_tokens: 0 })).toEqual([]);
  const words = Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' ');
  const flat = chunkText(words, { max_chunk_size_tokens: 100, chunk_overlap_tokens: 0 });
  expect(flat.join(' ')).toBe(words);
  const chinese = '文件搜索在浏览器里运行。'.repeat(200);
  const cjk = chunkText(chinese, { max_chunk_size_tokens: 100, chunk_overlap_tokens: 0 });
  expect(cjk.every((c) => estimateTokens(c) <= 101)).toBe(true);
  expect(cjk[0]!.length).toBeGreaterThan(90);
  expect(cjk.join('')).toBe(chinese);
});
