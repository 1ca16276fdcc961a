import { describe, expect, it } from 'vitest';
import { pythonJsonDumps } from './python-json';

describe('pythonJsonDumps', () => {
  it('spaces items and keys like json.dumps', () => {
    expect(pythonJsonDumps({ a: [1, 'x', null, true], b: {}, c: [], d: { e: 1.5 } })).toBe(
      '{"a": [1, "x", null, true], "b": {}, "c": [], "d": {"e": 1.5}}',
    );
  });

  it('escapes strings like json.dumps(ensure_ascii=False)', () => {
    expect(pythonJsonDumps({ 'k"ey': 'line\nbreak \\ tab\t ctrl\u0001 東京 🗼 /' })).toBe(
      '{"k\\"ey": "line\\nbreak \\\\ tab\\t ctrl\\u0001 東京 🗼 /"}',
    );
  });

  it('drops undefined members, as JSON.stringify does', () => {
    expect(pythonJsonDumps({ a: undefined, b: [undefined] })).toBe('{"b": [null]}');
  });
});
