/**
 * A custom tool's `regex` grammar (OpenAI: Rust `regex` syntax) as a grammar expression:
 * the whole input must match. Supported: literals and escapes (`\n`, `\t`, `\xHH`,
 * `\u{…}`, escaped punctuation), `.`, `\d \D \w \W \s \S`, classes with ranges and
 * negation, groups (`( )`, `(?: )`, `(?P<name> )`), `|`, `* + ? {n} {n,} {n,m}` (lazy forms
 * match the same inputs), and `^`/`$` at the ends. Refused, with what: lookaround,
 * backreferences, word boundaries, flags, Unicode classes — no engine here can honour them
 * as OpenAI does.
 */
import { alt, chars as charSet, complement, GrammarError, lit, normalize, rep, seq, type CharRanges, type GrammarExpr } from './grammar';

const DIGIT: CharRanges = [[0x30, 0x39]];
const WORD: CharRanges = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
const SPACE: CharRanges = [[0x09, 0x0d], [0x20, 0x20]];
const NOT_NEWLINE = complement([[0x0a, 0x0a]]);

/** A regex, parsed; `what` names it in errors (e.g. `regex grammar`). `dotAll`: `.` matches newlines too (Lark's `s` flag). */
export function regexToExpr(source: string, what = 'regex', options: { dotAll?: boolean } = {}): GrammarExpr {
  const chars = [...source];
  let pos = 0;
  const fail = (why: string): never => {
    throw new GrammarError(`${what}: ${why} (at character ${pos + 1} of ${JSON.stringify(source.length > 80 ? `${source.slice(0, 80)}…` : source)})`);
  };
  const peek = () => chars[pos];
  const eat = (c: string) => (chars[pos] === c ? (pos++, true) : false);

  function alternation(): GrammarExpr {
    const branches = [sequence()];
    while (eat('|')) branches.push(sequence());
    return alt(...branches);
  }

  function sequence(): GrammarExpr {
    const items: GrammarExpr[] = [];
    while (pos < chars.length && peek() !== '|' && peek() !== ')') {
      if (peek() === '^') {
        if (pos !== 0) fail('`^` is supported only at the start');
        pos++;
        continue;
      }
      if (peek() === '$') {
        pos++;
        if (pos !== chars.length) fail('`$` is supported only at the end');
        continue;
      }
      items.push(quantified(atom()));
    }
    return items.length === 0 ? lit('') : seq(...items);
  }

  function quantified(item: GrammarExpr): GrammarExpr {
    for (;;) {
      let next: GrammarExpr | null = null;
      if (eat('*')) next = rep(item, 0, null);
      else if (eat('+')) next = rep(item, 1, null);
      else if (eat('?')) next = rep(item, 0, 1);
      else if (peek() === '{' && /^\{\d+(,\d*)?\}/.test(chars.slice(pos).join(''))) {
        const match = /^\{(\d+)(,(\d*))?\}/.exec(chars.slice(pos).join(''))!;
        pos += match[0].length;
        const min = Number(match[1]);
        const max = match[2] === undefined ? min : match[3] === '' ? null : Number(match[3]);
        if (max !== null && max < min) fail(`the repetition {${min},${max}} is empty`);
        if (min > 10_000 || (max ?? 0) > 10_000) fail('repetitions above 10,000 are not supported');
        next = rep(item, min, max);
      }
      if (!next) return item;
      // A lazy or possessive quantifier matches the same whole inputs.
      if (!eat('?')) eat('+');
      item = next;
    }
  }

  function atom(): GrammarExpr {
    const c = chars[pos++]!;
    switch (c) {
      case '.':
        return chars_(options.dotAll ? complement([]) : NOT_NEWLINE);
      case '[':
        return chars_(charClass());
      case '(':
        return group();
      case '\\':
        return escape(false);
      case '*':
      case '+':
      case '?':
      case '{':
        if (c === '{' && !/^\d/.test(chars[pos] ?? '')) return lit(c);
        return fail(`nothing to repeat before '${c}'`);
      default:
        return lit(c);
    }
  }

  function chars_(ranges: CharRanges): GrammarExpr {
    return charSet(ranges);
  }

  function group(): GrammarExpr {
    if (eat('?')) {
      if (eat(':')) {
        /* non-capturing */
      } else if (eat('P') || peek() === '<') {
        if (peek() === '<' && (chars[pos + 1] === '=' || chars[pos + 1] === '!')) fail('lookbehind is not supported');
        if (!eat('<')) fail('a named group is written (?P<name>…)');
        while (pos < chars.length && peek() !== '>') pos++;
        if (!eat('>')) fail('unterminated group name');
      } else if (peek() === '=' || peek() === '!') fail('lookahead is not supported');
      else fail('inline flags such as (?i) are not supported');
    }
    const inner = alternation();
    if (!eat(')')) fail('missing )');
    return inner;
  }

  /** After a backslash; `inClass`: inside `[…]` (returns a set either way). */
  function escape(inClass: boolean): GrammarExpr {
    const set = escapeSet(inClass);
    return set.length === 1 && set[0]![0] === set[0]![1] ? lit(String.fromCodePoint(set[0]![0])) : charSet(set);
  }

  function escapeSet(inClass: boolean): CharRanges {
    const c = chars[pos++];
    if (c === undefined) return fail('a pattern cannot end with a backslash');
    const one = (code: number): CharRanges => [[code, code]];
    switch (c) {
      case 'd':
        return DIGIT;
      case 'D':
        return complement(DIGIT);
      case 'w':
        return WORD;
      case 'W':
        return complement(WORD);
      case 's':
        return SPACE;
      case 'S':
        return complement(SPACE);
      case 'n':
        return one(0x0a);
      case 'r':
        return one(0x0d);
      case 't':
        return one(0x09);
      case 'f':
        return one(0x0c);
      case 'v':
        return one(0x0b);
      case '0':
        return one(0);
      case 'a':
        return one(0x07);
      case 'x':
      case 'u': {
        const rest = chars.slice(pos).join('');
        const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(rest);
        const plain = c === 'x' ? /^([0-9a-fA-F]{2})/.exec(rest) : /^([0-9a-fA-F]{4})/.exec(rest);
        const match = braced ?? plain;
        if (!match) return fail(`\\${c} needs hex digits`);
        pos += match[0].length;
        const code = parseInt(match[1]!, 16);
        if (code > 0x10ffff) return fail('code point out of range');
        return one(code);
      }
      case 'b':
      case 'B':
      case 'A':
      case 'z':
        return inClass && c === 'b' ? one(0x08) : fail(`\\${c} (a boundary or anchor) is not supported`);
      case 'p':
      case 'P':
        return fail('Unicode classes (\\p{…}) are not supported');
      default:
        if (/[1-9]/.test(c)) return fail('backreferences are not supported');
        if (/[a-zA-Z]/.test(c)) return fail(`unknown escape \\${c}`);
        return one(c.codePointAt(0)!);
    }
  }

  function charClass(): CharRanges {
    const negated = eat('^');
    const ranges: CharRanges = [];
    let first = true;
    while (pos < chars.length && (peek() !== ']' || first)) {
      first = false;
      if (peek() === '[' && chars[pos + 1] === ':') fail('POSIX classes ([:alpha:]) are not supported');
      const low = classAtom();
      if (peek() === '-' && chars[pos + 1] !== ']' && chars[pos + 1] !== undefined) {
        pos++;
        const high = classAtom();
        if (low.length !== 1 || high.length !== 1 || low[0]![0] !== low[0]![1] || high[0]![0] !== high[0]![1]) fail('a range needs single characters at both ends');
        if (high[0]![0] < low[0]![0]) fail('a range must go upwards');
        ranges.push([low[0]![0], high[0]![0]]);
      } else ranges.push(...low);
    }
    if (!eat(']')) fail('missing ]');
    const set = normalize(ranges);
    return negated ? complement(set) : set;
  }

  function classAtom(): CharRanges {
    const c = chars[pos++]!;
    if (c === '\\') return escapeSet(true);
    if (c === '[') fail('nested classes are not supported');
    const code = c.codePointAt(0)!;
    return [[code, code]];
  }

  const expr = alternation();
  if (pos < chars.length) fail('unbalanced )');
  return expr;
}
