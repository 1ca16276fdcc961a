/**
 * A custom tool's `lark` grammar (OpenAI: the LLGuidance flavour of Lark) as a grammar: rules
 * `name: a | b` and terminals `NAME: …`, `"literals"` (`i` for any case), `"a".."z"`,
 * `/regex/` (flags `i`, `s`; syntax of `regex-grammar.ts`), `( )`, `[ ]`, `? * +`,
 * `~ n`, `~ n..m`, `-> alias` (dropped), `?rule`/`!rule`, `NAME.priority`, `//` comments,
 * `%import common.NAME` (Lark's common terminals), and `%ignore` (ignored terminals may come
 * before any token of a rule, and at the end). The root is `start`. Refused, naming it:
 * templates, `%declare`, other imports.
 */
import { alt, GrammarError, lit, opt, ref, rep, seq, type CharRanges, type Grammar, type GrammarExpr } from './grammar';
import { regexToExpr } from './regex-grammar';

type Token =
  | { t: 'name'; v: string }
  | { t: 'str'; v: string; i: boolean }
  | { t: 'regex'; v: string; flags: string }
  | { t: 'num'; v: number }
  | { t: 'op'; v: string };

/** Lark's `common` terminals, in Lark. */
const COMMON = `
DIGIT: "0".."9"
HEXDIGIT: "a".."f" | "A".."F" | DIGIT
INT: DIGIT+
SIGNED_INT: ["+" | "-"] INT
DECIMAL: INT "." INT? | "." INT
_EXP: ("e" | "E") SIGNED_INT
FLOAT: INT _EXP | DECIMAL _EXP?
SIGNED_FLOAT: ["+" | "-"] FLOAT
NUMBER: FLOAT | INT
SIGNED_NUMBER: ["+" | "-"] NUMBER
_STRING_ESC_INNER: /([^"\\\\\\n]|\\\\.)*/
ESCAPED_STRING: "\\"" _STRING_ESC_INNER "\\""
LCASE_LETTER: "a".."z"
UCASE_LETTER: "A".."Z"
LETTER: UCASE_LETTER | LCASE_LETTER
WORD: LETTER+
CNAME: ("_" | LETTER) ("_" | LETTER | DIGIT)*
WS_INLINE: (" " | /\\t/)+
WS: /[ \\t\\f\\r\\n]/+
CR: /\\r/
LF: /\\n/
NEWLINE: (CR? LF)+
`;

interface Definition {
  name: string;
  body: Token[];
  terminal: boolean;
}

function tokenize(text: string, fail: (why: string) => never): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (text.startsWith('//', i) || c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\') {
          const e = text[j + 1];
          const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', f: '\f', v: '\v', '0': '\0' };
          if (e === 'u' || e === 'x') {
            const hex = e === 'u' ? text.slice(j + 2, j + 6) : text.slice(j + 2, j + 4);
            if (!/^[0-9a-fA-F]+$/.test(hex)) fail(`bad \\${e} escape in a string`);
            value += String.fromCodePoint(parseInt(hex, 16));
            j += 2 + hex.length;
            continue;
          }
          value += map[e ?? ''] ?? e ?? '';
          j += 2;
          continue;
        }
        value += text[j];
        j++;
      }
      if (text[j] !== '"') fail('unterminated string');
      i = j + 1;
      const caseless = text[i] === 'i' && !/[A-Za-z0-9_]/.test(text[i + 1] ?? '');
      if (caseless) i++;
      out.push({ t: 'str', v: value, i: caseless });
      continue;
    }
    if (c === '/' && text[i + 1] !== '/') {
      let j = i + 1;
      let inClass = false;
      while (j < text.length && (text[j] !== '/' || inClass)) {
        if (text[j] === '\\') j++;
        else if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
        j++;
      }
      if (text[j] !== '/') fail('unterminated /regex/');
      const source = text.slice(i + 1, j);
      const flags = /^[a-z]*/.exec(text.slice(j + 1))![0];
      out.push({ t: 'regex', v: source, flags });
      i = j + 1 + flags.length;
      continue;
    }
    const name = /^[?!]?[_A-Za-z][_A-Za-z0-9]*/.exec(text.slice(i));
    if (name) {
      out.push({ t: 'name', v: name[0] });
      i += name[0].length;
      continue;
    }
    const num = /^\d+/.exec(text.slice(i));
    if (num) {
      out.push({ t: 'num', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const op = ['->', '..', '%import', '%ignore', '%declare', '%override', '%extend'].find((o) => text.startsWith(o, i)) ?? (':|()[]?*+~.{},'.includes(c) ? c : null);
    if (!op) fail(`unexpected '${c}'`);
    out.push({ t: 'op', v: op! });
    i += op!.length;
  }
  return out;
}

const isTerminal = (name: string) => /^_?[A-Z][_A-Z0-9]*$/.test(name);

/** Splits a grammar into statements: a definition or directive starts a line; other lines continue it. */
function statements(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const head = line.replace(/\/\/.*$/, '').trim();
    if (head === '') continue;
    const starts = /^[?!]?[_A-Za-z][_A-Za-z0-9]*(\.\d+)?\s*:/.test(head) || head.startsWith('%');
    if (starts || out.length === 0) out.push(line);
    else out[out.length - 1] += `\n${line}`;
  }
  return out;
}

/** Parses a Lark grammar; `what` names it in errors. */
export function larkToGrammar(source: string, what = 'lark grammar'): Grammar {
  const fail = (why: string): never => {
    throw new GrammarError(`${what}: ${why}`);
  };
  const definitions = new Map<string, Definition>();
  const ignored: string[] = [];
  const common = new Map<string, Definition>();
  for (const statement of statements(COMMON)) {
    const def = readDefinition(tokenize(statement, fail), fail);
    common.set(def.name, def);
  }
  const importCommon = (name: string, as = name) => {
    const def = common.get(name) ?? fail(`%import common.${name}: Lark's common module has no ${name} here`);
    definitions.set(as, { ...def, name: as });
    // A common terminal's own parts come along.
    for (const token of def.body) if (token.t === 'name' && common.has(token.v) && !definitions.has(token.v)) importCommon(token.v);
  };
  for (const statement of statements(source)) {
    const tokens = tokenize(statement, fail);
    const first = tokens[0]!;
    if (first.t === 'op' && first.v === '%import') {
      const path = tokens[1];
      if (path?.t !== 'name' || path.v !== 'common') fail('only %import common.NAME is supported');
      if (tokens[2]?.t === 'op' && tokens[2].v === '.') {
        const name = tokens[3]?.t === 'name' ? tokens[3].v : fail('%import common.NAME needs a name');
        const as = tokens[4]?.t === 'op' && tokens[4].v === '->' && tokens[5]?.t === 'name' ? tokens[5].v : name;
        importCommon(name, as);
      } else if (tokens[2]?.t === 'op' && tokens[2].v === '(') {
        for (const t of tokens.slice(3)) if (t.t === 'name') importCommon(t.v);
      } else fail('write %import common.NAME or %import common (A, B)');
    } else if (first.t === 'op' && first.v === '%ignore') {
      const rest = tokens.slice(1);
      if (rest.length === 1 && rest[0]!.t === 'name') ignored.push(rest[0]!.v);
      else {
        const name = `__IGNORE${ignored.length}`;
        definitions.set(name, { name, body: rest, terminal: true });
        ignored.push(name);
      }
    } else if (first.t === 'op') fail(`the directive ${first.v} is not supported`);
    else {
      const def = readDefinition(tokens, fail);
      if (definitions.has(def.name) && !common.has(def.name)) fail(`'${def.name}' is defined twice`);
      definitions.set(def.name, def);
    }
  }
  if (!definitions.has('start')) fail("no 'start' rule: the grammar's root must be called start");

  // Rule names as both printers read them: letters and digits only.
  const names = new Map<string, string>();
  [...definitions.keys()].forEach((name, i) => names.set(name, `lk${i}${name.replace(/[^A-Za-z0-9]/g, '').toLowerCase()}`));
  const ruleOf = (name: string) => names.get(name) ?? fail(`'${name}' is used but not defined`);
  const ignoreRule = ignored.length ? 'lkignore' : null;
  const rules: Record<string, GrammarExpr> = {};
  for (const def of definitions.values()) {
    const expr = new ExpansionReader(def.body, def.terminal ? null : ignoreRule, ruleOf, fail, def.name).read();
    rules[ruleOf(def.name)] = def.name === 'start' && ignoreRule ? seq(expr, rep(ref(ignoreRule), 0, null)) : expr;
  }
  if (ignoreRule) rules[ignoreRule] = alt(...ignored.map((name) => ref(ruleOf(name))));
  return { rules, root: ruleOf('start') };
}

function readDefinition(tokens: Token[], fail: (why: string) => never): Definition {
  const head = tokens[0];
  if (head?.t !== 'name') return fail('a definition starts with its name');
  const name = head.v.replace(/^[?!]/, '');
  let at = 1;
  if (tokens[at]?.t === 'op' && (tokens[at] as { v: string }).v === '.' && tokens[at + 1]?.t === 'num') at += 2; // priority
  if (tokens[at]?.t === 'op' && (tokens[at] as { v: string }).v === '{') fail(`'${name}' is a template rule, which is not supported`);
  if (!(tokens[at]?.t === 'op' && (tokens[at] as { v: string }).v === ':')) fail(`'${name}' needs a ':' after its name`);
  return { name, body: tokens.slice(at + 1), terminal: isTerminal(name) };
}

class ExpansionReader {
  private at = 0;
  constructor(
    private readonly tokens: Token[],
    /** In a rule (not a terminal): ignored terminals may precede each token. */
    private readonly ignoreRule: string | null,
    private readonly ruleOf: (name: string) => string,
    private readonly fail: (why: string) => never,
    private readonly name: string,
  ) {}

  read(): GrammarExpr {
    const expr = this.expansions();
    if (this.at < this.tokens.length) this.fail(`unexpected ${JSON.stringify((this.tokens[this.at] as { v: unknown }).v)} in '${this.name}'`);
    return expr;
  }

  private isOp(v: string): boolean {
    const token = this.tokens[this.at];
    return token?.t === 'op' && token.v === v;
  }

  private expansions(): GrammarExpr {
    const branches = [this.alias()];
    while (this.isOp('|')) {
      this.at++;
      branches.push(this.alias());
    }
    return alt(...branches);
  }

  private alias(): GrammarExpr {
    const items: GrammarExpr[] = [];
    while (this.at < this.tokens.length && !this.isOp('|') && !this.isOp(')') && !this.isOp(']') && !this.isOp('->')) items.push(this.expr());
    if (this.isOp('->')) this.at += 2; // `-> alias`: tree shaping only
    return items.length === 0 ? lit('') : seq(...items);
  }

  private expr(): GrammarExpr {
    let item = this.atom();
    for (;;) {
      if (this.isOp('?')) item = opt(item);
      else if (this.isOp('*')) item = rep(item, 0, null);
      else if (this.isOp('+')) item = rep(item, 1, null);
      else if (this.isOp('~')) {
        this.at++;
        const min = this.number();
        let max = min;
        if (this.isOp('..')) {
          this.at++;
          max = this.number();
        }
        if (max < min) this.fail(`the repetition ~${min}..${max} in '${this.name}' is empty`);
        item = rep(item, min, max);
        continue;
      } else return item;
      this.at++;
    }
  }

  private number(): number {
    const token = this.tokens[this.at++];
    return token?.t === 'num' ? token.v : this.fail(`a number is expected after ~ in '${this.name}'`);
  }

  /** A token of a rule may be preceded by ignored terminals. */
  private token(expr: GrammarExpr): GrammarExpr {
    return this.ignoreRule ? seq(rep(ref(this.ignoreRule), 0, null), expr) : expr;
  }

  private atom(): GrammarExpr {
    const token = this.tokens[this.at++];
    if (!token) return this.fail(`'${this.name}' ends too early`);
    if (token.t === 'op' && token.v === '(') {
      const inner = this.expansions();
      if (!this.isOp(')')) this.fail(`missing ) in '${this.name}'`);
      this.at++;
      return inner;
    }
    if (token.t === 'op' && token.v === '[') {
      const inner = this.expansions();
      if (!this.isOp(']')) this.fail(`missing ] in '${this.name}'`);
      this.at++;
      return opt(inner);
    }
    if (token.t === 'str') {
      if (this.isOp('..')) {
        this.at++;
        const high = this.tokens[this.at++];
        if (high?.t !== 'str' || [...token.v].length !== 1 || [...high.v].length !== 1) this.fail(`a range "a".."z" in '${this.name}' needs one character each side`);
        const ranges: CharRanges = [[token.v.codePointAt(0)!, (high as { v: string }).v.codePointAt(0)!]];
        return this.token({ kind: 'chars', ranges });
      }
      return this.token(token.i ? caseless(lit(token.v)) : lit(token.v));
    }
    if (token.t === 'regex') {
      const unknown = token.flags.replace(/[is]/g, '');
      if (unknown) this.fail(`regex flag '${unknown}' in '${this.name}' is not supported (only i and s)`);
      let expr = regexToExpr(token.v, `regex /${token.v}/ in '${this.name}'`, { dotAll: token.flags.includes('s') });
      if (token.flags.includes('i')) expr = caseless(expr);
      return this.token(expr);
    }
    if (token.t === 'name') {
      const name = token.v.replace(/^[?!]/, '');
      if (this.isOp('{')) this.fail(`'${name}' is a template, which is not supported`);
      return isTerminal(name) ? this.token(ref(this.ruleOf(name))) : ref(this.ruleOf(name));
    }
    return this.fail(`unexpected ${JSON.stringify(token.v)} in '${this.name}'`);
  }
}

/** `expr` matching its ASCII letters in either case. */
function caseless(expr: GrammarExpr): GrammarExpr {
  const swap = (code: number) => (code >= 0x41 && code <= 0x5a ? code + 32 : code >= 0x61 && code <= 0x7a ? code - 32 : code);
  switch (expr.kind) {
    case 'lit':
      return seq(
        ...[...expr.text].map((c): GrammarExpr => {
          const code = c.codePointAt(0)!;
          return swap(code) === code ? lit(c) : { kind: 'chars', ranges: [[Math.min(code, swap(code)), Math.min(code, swap(code))], [Math.max(code, swap(code)), Math.max(code, swap(code))]] };
        }),
      );
    case 'chars': {
      const extra: CharRanges = [];
      for (const [a, b] of expr.ranges) for (let c = Math.max(a, 0x41); c <= Math.min(b, 0x7a); c++) if (swap(c) !== c) extra.push([swap(c), swap(c)]);
      return { kind: 'chars', ranges: [...expr.ranges, ...extra].sort((x, y) => x[0] - y[0]).reduce<CharRanges>((out, [a, b]) => {
        const last = out[out.length - 1];
        if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
        else out.push([a, b]);
        return out;
      }, []) };
    }
    case 'seq':
    case 'alt':
      return { kind: expr.kind, items: expr.items.map(caseless) };
    case 'rep':
      return { ...expr, item: caseless(expr.item) };
    case 'ref':
      return expr;
  }
}
