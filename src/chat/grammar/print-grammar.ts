/**
 * A grammar as text, in the subset llama.cpp's GBNF and xgrammar's EBNF (web-llm) both read:
 * `name ::= …` rules, double-quoted literals, `[…]` and `[^…]` classes, `( )`, `|`, `*`,
 * `+`, `?`, `{m}`, `{m,}`, `{m,n}`. Escapes are `\uHHHH` and `\UHHHHHHHH`, which both read
 * alike; everything outside printable ASCII is written escaped.
 */
import { complement, MAX_CODE_POINT, type CharRanges, type Grammar, type GrammarExpr } from './grammar';

/** `\uHHHH` / `\UHHHHHHHH`: fixed lengths in both readers (xgrammar's `\x` takes every hex digit that follows). */
function hex(code: number): string {
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

function literalChar(code: number): string {
  if (code === 0x22 || code === 0x5c || code < 0x20 || code > 0x7e) return hex(code);
  return String.fromCodePoint(code);
}

function classChar(code: number): string {
  // Inside a class: `]`, `\`, `^` and `-` are special; escaping them by code works everywhere.
  if (code === 0x5d || code === 0x5c || code === 0x5e || code === 0x2d || code < 0x20 || code > 0x7e) return hex(code);
  return String.fromCodePoint(code);
}

function printClass(ranges: CharRanges): string {
  const body = (rs: CharRanges) => rs.map(([a, b]) => (a === b ? classChar(a) : `${classChar(a)}-${classChar(b)}`)).join('');
  // A set reaching the last code point is shorter (and clearer) as the negation of the rest.
  const last = ranges[ranges.length - 1];
  if (last && last[1] === MAX_CODE_POINT && ranges.length > 0) {
    const rest = complement(ranges);
    // Everything: written as "anything but NUL" (a model never writes NUL).
    return rest.length === 0 ? '[^\\x00]' : `[^${body(rest)}]`;
  }
  return `[${body(ranges)}]`;
}

function atomic(expr: GrammarExpr): boolean {
  return expr.kind === 'lit' || expr.kind === 'chars' || expr.kind === 'ref';
}

function printExpr(expr: GrammarExpr): string {
  switch (expr.kind) {
    case 'lit':
      return `"${[...expr.text].map((c) => literalChar(c.codePointAt(0)!)).join('')}"`;
    case 'chars':
      if (expr.ranges.length === 0) throw new Error('an empty character set matches nothing');
      return printClass(expr.ranges);
    case 'ref':
      return expr.rule;
    case 'seq':
      return expr.items.length === 0 ? '""' : expr.items.map((i) => (i.kind === 'alt' ? `(${printExpr(i)})` : printExpr(i))).join(' ');
    case 'alt':
      return expr.items.map(printExpr).join(' | ');
    case 'rep': {
      const item = atomic(expr.item) ? printExpr(expr.item) : `(${printExpr(expr.item)})`;
      const { min, max } = expr;
      if (min === 0 && max === null) return `${item}*`;
      if (min === 1 && max === null) return `${item}+`;
      if (min === 0 && max === 1) return `${item}?`;
      if (max === null) return `${item}{${min},}`;
      if (min === max) return `${item}{${min}}`;
      return `${item}{${min},${max}}`;
    }
  }
}

/** The grammar as GBNF / xgrammar EBNF text, its `root` rule first (both engines start there). */
export function printGrammar(grammar: Grammar): string {
  const lines = grammar.root === 'root' ? [] : [`root ::= ${grammar.root}`];
  const names = [grammar.root, ...Object.keys(grammar.rules).filter((n) => n !== grammar.root)];
  if (grammar.root !== 'root' && grammar.rules.root) throw new Error("a grammar whose root is not 'root' cannot have a rule called root");
  return [...lines, ...names.map((name) => `${name} ::= ${printExpr(grammar.rules[name]!)}`)].join('\n') + '\n';
}
