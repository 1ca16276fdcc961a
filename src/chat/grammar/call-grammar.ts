/**
 * The grammar of a whole model output that may call tools, in the model family's own call
 * syntax — how a custom tool's grammar constrains its input in a local engine. Free text is
 * anything that does not contain the family's call opener (every opener starts a call, as
 * the parser reads it); each call is the family's frame around its JSON arguments; a custom
 * tool's input, inside its JSON string, must be in its grammar's language (written
 * JSON-escaped, so the parsed string is exactly a sentence of the grammar).
 *
 * - `auto`: text and calls in any order (a reasoning block may come first);
 * - `required`: at least one call;
 * - `{name}`: exactly that call.
 */
import { alt, chars, complement, contains, GrammarError, lit, normalize, opt, ref, rep, seq, subtract, type CharRanges, type Grammar, type GrammarExpr } from './grammar';

/** How a chat family writes tool calls (`ChatFormat.callSyntax`). */
export interface CallSyntax {
  /** What opens every call: free text never contains it. */
  open: string;
  /** The text before and after one call's JSON arguments. */
  frame(name: string): { before: string; after: string };
  /** Reasoning tags, when the family writes a reasoning block before its answer. */
  reasoning?: { open: string; close: string };
}

/** A tool the model may call, by its model-side name, and what its arguments may be. */
export interface CallGrammarTool {
  name: string;
  /** Any JSON object (a function); a custom tool's free string; a custom tool's grammar (its input's language). */
  input: { kind: 'json' } | { kind: 'text' } | { kind: 'grammar'; grammar: Grammar };
}

export type CallChoice = 'auto' | 'required' | { name: string };

const WS: CharRanges = [[0x09, 0x0a], [0x20, 0x20]];
/** Characters a JSON string cannot hold as they are. */
const JSON_SPECIALS: CharRanges = [[0x00, 0x1f], [0x22, 0x22], [0x5c, 0x5c]];

export function callGrammar(syntax: CallSyntax, tools: readonly CallGrammarTool[], choice: CallChoice): Grammar {
  const rules: Record<string, GrammarExpr> = {};
  addJsonRules(rules);
  const calls = tools.map((tool, k) => {
    const { before, after } = syntax.frame(tool.name);
    rules[`call${k}`] = seq(lit(before), argumentsOf(tool, k, rules), lit(after));
    return { name: tool.name, rule: `call${k}` };
  });
  if (calls.length === 0) throw new GrammarError('no tool to call');
  rules.calls = alt(...calls.map((c) => ref(c.rule)));
  rules.seg = seq(ref(notContaining(syntax.open, 'fr', rules)), opt(seq(ref('calls'), ref('seg'))));
  const think = syntax.reasoning ? [opt(ref(reasoningRule(syntax.reasoning, rules)))] : [];
  if (choice === 'auto') rules.root = seq(...think, ref('seg'));
  else if (choice === 'required') rules.root = seq(...think, ref('fr0'), ref('calls'), ref('seg'));
  else {
    const forced = calls.find((c) => c.name === choice.name) ?? (() => { throw new GrammarError(`no tool '${choice.name}' to call`); })();
    rules.root = seq(...think, rep(chars(WS), 0, 8), ref(forced.rule));
  }
  return { rules, root: 'root' };
}

function argumentsOf(tool: CallGrammarTool, k: number, rules: Record<string, GrammarExpr>): GrammarExpr {
  if (tool.input.kind === 'json') return ref('jsobj');
  const open = lit('{"input": "');
  const close = lit('"}');
  if (tool.input.kind === 'text') return seq(open, rep(ref('jschar'), 0, null), close);
  // The tool's grammar, renamed into this one and written as the inside of a JSON string.
  const { grammar } = tool.input;
  const rename = (name: string) => `g${k}${name}`;
  for (const [name, expr] of Object.entries(grammar.rules)) rules[rename(name)] = jsonEscaped(expr, rename);
  return seq(open, ref(rename(grammar.root)), close);
}

/** `expr`'s sentences as they are written inside a JSON string. */
export function jsonEscaped(expr: GrammarExpr, rename: (rule: string) => string): GrammarExpr {
  switch (expr.kind) {
    case 'lit':
      return lit(JSON.stringify(expr.text).slice(1, -1));
    case 'chars': {
      const plain = subtract(expr.ranges, JSON_SPECIALS);
      const specials: GrammarExpr[] = [];
      for (const [a, b] of JSON_SPECIALS) for (let c = a; c <= b; c++) if (contains(expr.ranges, c)) specials.push(lit(JSON.stringify(String.fromCharCode(c)).slice(1, -1)));
      return alt(...(plain.length ? [chars(plain)] : []), ...specials);
    }
    case 'ref':
      return ref(rename(expr.rule));
    case 'seq':
      return seq(...expr.items.map((i) => jsonEscaped(i, rename)));
    case 'alt':
      return alt(...expr.items.map((i) => jsonEscaped(i, rename)));
    case 'rep':
      return rep(jsonEscaped(expr.item, rename), expr.min, expr.max);
  }
}

/**
 * Rules `<prefix>0…` for any text that does not contain `pattern` (a KMP automaton: rule i =
 * "the last i characters are the pattern's first i"). Returns the first rule's name.
 */
export function notContaining(pattern: string, prefix: string, rules: Record<string, GrammarExpr>): string {
  const p = [...pattern].map((c) => c.codePointAt(0)!);
  const fail = new Array<number>(p.length).fill(0);
  for (let i = 1, k = 0; i < p.length; i++) {
    while (k > 0 && p[i] !== p[k]) k = fail[k - 1]!;
    if (p[i] === p[k]) k++;
    fail[i] = k;
  }
  const step = (state: number, c: number) => {
    let s = state;
    while (s > 0 && p[s] !== c) s = fail[s - 1]!;
    return p[s] === c ? s + 1 : 0;
  };
  const distinct = [...new Set(p)];
  const others = complement(normalize(distinct.map((c) => [c, c] as [number, number])));
  for (let state = 0; state < p.length; state++) {
    const moves: GrammarExpr[] = [seq(chars(others), ref(`${prefix}0`))];
    for (const c of distinct) {
      const next = step(state, c);
      if (next < p.length) moves.push(seq(lit(String.fromCodePoint(c)), ref(`${prefix}${next}`)));
    }
    rules[`${prefix}${state}`] = alt(lit(''), ...moves);
  }
  return `${prefix}0`;
}

function reasoningRule(tags: { open: string; close: string }, rules: Record<string, GrammarExpr>): string {
  rules.think = seq(lit(tags.open), ref(notContaining(tags.close, 'th', rules)), lit(tags.close));
  return 'think';
}

/** JSON values, as llama.cpp's own JSON grammar writes them (whitespace bounded, so a small model cannot loop in it). */
function addJsonRules(rules: Record<string, GrammarExpr>): void {
  const ws = ref('jsws');
  const member = seq(ref('jsstr'), ws, lit(':'), ws, ref('jsval'));
  rules.jsws = rep(chars(WS), 0, 20);
  rules.jsobj = seq(lit('{'), ws, opt(seq(member, ws, rep(seq(lit(','), ws, member, ws), 0, null))), lit('}'));
  rules.jsarr = seq(lit('['), ws, opt(seq(ref('jsval'), ws, rep(seq(lit(','), ws, ref('jsval'), ws), 0, null))), lit(']'));
  rules.jschar = alt(chars(complement(JSON_SPECIALS)), seq(lit('\\'), alt(chars([[0x22, 0x22], [0x2f, 0x2f], [0x5c, 0x5c], [0x62, 0x62], [0x66, 0x66], [0x6e, 0x6e], [0x72, 0x72], [0x74, 0x74]]), seq(lit('u'), rep(chars([[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]]), 4, 4)))));
  rules.jsstr = seq(lit('"'), rep(ref('jschar'), 0, null), lit('"'));
  const digits = chars([[0x30, 0x39]]);
  rules.jsnum = seq(opt(lit('-')), alt(lit('0'), seq(chars([[0x31, 0x39]]), rep(digits, 0, null))), opt(seq(lit('.'), rep(digits, 1, null))), opt(seq(chars([[0x45, 0x45], [0x65, 0x65]]), opt(chars([[0x2b, 0x2b], [0x2d, 0x2d]])), rep(digits, 1, null))));
  rules.jsval = alt(ref('jsobj'), ref('jsarr'), ref('jsstr'), ref('jsnum'), lit('true'), lit('false'), lit('null'));
}
