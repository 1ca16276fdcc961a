import { expect, test } from 'vitest';
import { matchesFilter } from './attribute-filter';
import { fuse, keywordScores, vectorScores } from './rank-fusion';

const hit = (fileId: string, index: number, score: number) => ({ fileId, index, score });

test('fused scores are 0–1: first in both lists is 1, one list alone at most its weight’s share', () => {
  const fused = fuse([
    { hits: [hit('a', 0, 0.9), hit('b', 0, 0.5)], weight: 1 },
    { hits: [hit('a', 0, 12), hit('c', 0, 3)], weight: 1 },
  ]);
  expect(fused[0]).toEqual({ fileId: 'a', index: 0, score: 1 });
  expect(fused.slice(1).every((c) => c.score <= 0.5)).toBe(true);
  const weighted = fuse([
    { hits: [hit('b', 0, 0.9)], weight: 3 },
    { hits: [hit('c', 0, 9)], weight: 1 },
  ]);
  expect(weighted.map((c) => c.fileId)).toEqual(['b', 'c']);
  expect(weighted[0]!.score).toBeCloseTo(0.75);
  expect(fuse([{ hits: [hit('a', 0, 1)], weight: 0 }])).toEqual([]);
});

test('keyword scores saturate per query term; cosine is clamped to 0–1', () => {
  const [strong, weak] = keywordScores([hit('a', 0, 16), hit('b', 0, 2)], 2);
  expect(strong!.score).toBeCloseTo(8 / 12);
  expect(weak!.score).toBeCloseTo(1 / 5);
  expect(vectorScores([hit('a', 0, -0.2), hit('b', 0, 1.0000001)]).map((c) => c.score)).toEqual([0, 1]);
});

test('attribute filters: comparisons, missing keys, types, nested and/or', () => {
  const attrs = { year: 2024, tag: 'report', public: true };
  expect(matchesFilter({ key: 'year', type: 'gte', value: 2024 }, attrs)).toBe(true);
  expect(matchesFilter({ key: 'year', type: 'gt', value: '2000' }, attrs)).toBe(false); // number vs string
  expect(matchesFilter({ key: 'tag', type: 'in', value: ['memo', 'report'] }, attrs)).toBe(true);
  expect(matchesFilter({ key: 'tag', type: 'nin', value: ['report'] }, attrs)).toBe(false);
  expect(matchesFilter({ key: 'missing', type: 'ne', value: 1 }, attrs)).toBe(false);
  expect(matchesFilter({ key: 'public', type: 'eq', value: true }, null)).toBe(false);
  expect(
    matchesFilter({ type: 'or', filters: [{ key: 'tag', type: 'eq', value: 'memo' }, { type: 'and', filters: [{ key: 'public', type: 'eq', value: true }, { key: 'year', type: 'lt', value: 2030 }] }] }, attrs),
  ).toBe(true);
});
