import { expect, test } from 'vitest';
import { readEmbeddings } from './remote-embedder';

const b64 = (values: number[]) => btoa(String.fromCharCode(...new Uint8Array(Float32Array.from(values).buffer)));

test('vectors come back in input order by their index, normalised; base64 float32 is read too', () => {
  const read = readEmbeddings({ data: [{ index: 1, embedding: [0, 2] }, { index: 0, embedding: b64([3, 4]) }], usage: { prompt_tokens: 5 } }, 2);
  if (typeof read === 'string') throw new Error(read);
  expect(read.vectors.map((v) => Array.from(v))).toEqual([[0.6000000238418579, 0.800000011920929], [0, 1]]);
  expect(read.promptTokens).toBe(5);
});

test('without usable indexes the listed order is kept; no usage is no count', () => {
  const read = readEmbeddings({ data: [{ embedding: [1, 0] }, { index: 0, embedding: [0, 1] }] }, 2);
  if (typeof read === 'string') throw new Error(read);
  expect(read.vectors.map((v) => Array.from(v))).toEqual([[1, 0], [0, 1]]);
  expect(read.promptTokens).toBeUndefined();
});

test('what is not one finite vector per input, of one length, is refused with why', () => {
  expect(readEmbeddings({ data: [{ index: 0, embedding: [1] }] }, 2)).toBe('has 1 vectors for 2 inputs.');
  expect(readEmbeddings({ data: [{ index: 0, embedding: [1, 2] }, { index: 1, embedding: [1] }] }, 2)).toBe('has vectors of different lengths.');
  expect(readEmbeddings({ data: [{ index: 0, embedding: [1, null] }] }, 1)).toBe('has a vector that is not all numbers.');
  expect(readEmbeddings({ data: [{ index: 0, embedding: b64([1, Number.NaN]) }] }, 1)).toBe('has a vector that is not all numbers.');
  expect(readEmbeddings({ data: [{ index: 0, embedding: 'not base64!' }] }, 1)).toBe('has a vector that is neither numbers nor base64.');
  expect(readEmbeddings({ data: [{ index: 0, embedding: [] }] }, 1)).toBe('has an empty vector.');
  expect(readEmbeddings({ data: [{ index: 0 }] }, 1)).toBe('has an entry without an `embedding`.');
  expect(readEmbeddings('nope', 1)).toMatch(/^is not an embeddings list/);
});
