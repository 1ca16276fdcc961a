/**
 * Grammars as data: what custom-tool grammars (Lark, regex) are read into, what the call
 * grammar of a chat family is built from, and what engines print for their samplers
 * (llama.cpp's GBNF and xgrammar's EBNF share the subset `print-grammar.ts` writes).
 * Character sets hold code points as sorted, disjoint, inclusive ranges.
 */

export type CharRanges = Array<[number, number]>;

export type GrammarExpr =
  | { kind: 'lit'; text: string }
  | { kind: 'chars'; ranges: CharRanges }
  | { kind: 'ref'; rule: string }
  | { kind: 'seq'; items: GrammarExpr[] }
  | { kind: 'alt'; items: GrammarExpr[] }
  | { kind: 'rep'; item: GrammarExpr; min: number; max: number | null };

export interface Grammar {
  /** Rules by name; names are letters and digits only (both printers' rule-name alphabets). */
  rules: Record<string, GrammarExpr>;
  root: string;
}

/** A grammar that a request cannot use, and why (the server answers a 400 naming the tool). */
export class GrammarError extends Error {
  override name = 'GrammarError';
}

export const MAX_CODE_POINT = 0x10ffff;

export const lit = (text: string): GrammarExpr => ({ kind: 'lit', text });
export const ref = (rule: string): GrammarExpr => ({ kind: 'ref', rule });
export const seq = (...items: GrammarExpr[]): GrammarExpr => (items.length === 1 ? items[0]! : { kind: 'seq', items });
export const alt = (...items: GrammarExpr[]): GrammarExpr => (items.length === 1 ? items[0]! : { kind: 'alt', items });
export const rep = (item: GrammarExpr, min: number, max: number | null): GrammarExpr => ({ kind: 'rep', item, min, max });
export const opt = (item: GrammarExpr): GrammarExpr => rep(item, 0, 1);
export const chars = (ranges: CharRanges): GrammarExpr => ({ kind: 'chars', ranges: normalize(ranges) });

/** Sorted, merged ranges. */
export function normalize(ranges: CharRanges): CharRanges {
  const sorted = ranges.filter(([a, b]) => a <= b).sort((x, y) => x[0] - y[0]);
  const out: CharRanges = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** Every code point not in `ranges`. */
export function complement(ranges: CharRanges): CharRanges {
  const out: CharRanges = [];
  let next = 0;
  for (const [a, b] of normalize(ranges)) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** `ranges` without the code points of `minus`. */
export function subtract(ranges: CharRanges, minus: CharRanges): CharRanges {
  const keep = complement(minus);
  const out: CharRanges = [];
  for (const [a, b] of normalize(ranges)) for (const [c, d] of keep) if (Math.max(a, c) <= Math.min(b, d)) out.push([Math.max(a, c), Math.min(b, d)]);
  return normalize(out);
}

export function contains(ranges: CharRanges, code: number): boolean {
  return ranges.some(([a, b]) => a <= code && code <= b);
}
