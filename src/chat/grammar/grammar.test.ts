/**
 * Custom-tool grammars as the engines get them: regex and Lark read into grammars, printed
 * as GBNF/xgrammar EBNF, and checked with xgrammar itself (the engine web-llm runs) —
 * each accepts what the original accepts and refuses what it refuses.
 */
import { describe, expect, it } from 'vitest';
import { compileEbnf } from '../../../test/support/xgrammar';
import { callGrammar, type CallSyntax } from './call-grammar';
import { GrammarError, type Grammar } from './grammar';
import { larkToGrammar } from './lark-grammar';
import { printGrammar } from './print-grammar';
import { regexToExpr } from './regex-grammar';

const regexGrammar = (source: string): Grammar => ({ rules: { root: regexToExpr(source) }, root: 'root' });

async function accepts(grammar: Grammar, inputs: string[]): Promise<boolean[]> {
  const check = await compileEbnf(printGrammar(grammar));
  return Promise.all(inputs.map(check));
}

describe('regex grammars', () => {
  it('classes, escapes, groups, alternation and counted repetition', async () => {
    const g = regexGrammar('^(?:[A-Z]{2,3}-\\d{4}|id:\\s?[a-f0-9]+)(\\.v[1-9])?$');
    expect(await accepts(g, ['AB-1234', 'XYZ-0000.v2', 'id: beef', 'id:00', 'A-1234', 'AB-123', 'id:xyz', 'AB-1234.v0'])).toEqual([true, true, true, true, false, false, false, false]);
  });

  it('negated classes, dot and special characters the printers must escape', async () => {
    const g = regexGrammar('"[^"\\\\\\n]*"\\t\\[\\]\\^-.');
    expect(await accepts(g, ['"a b ]^-"\t[]^-x', '""\t[]^-é', '"a\\b"\t[]^-x', '"a"\t[]^-\n'])).toEqual([true, true, false, false]);
  });

  it('what no engine here can honour is refused with what it is', () => {
    expect(() => regexToExpr('a(?=b)')).toThrow(/lookahead/);
    expect(() => regexToExpr('(a)\\1')).toThrow(/backreferences/);
    expect(() => regexToExpr('\\bword')).toThrow(/boundary/);
    expect(() => regexToExpr('(?i)abc')).toThrow(/flags/);
    expect(() => regexToExpr('[a-')).toThrow(GrammarError);
  });
});

describe('Lark grammars', () => {
  it('rules, terminals, literals, ranges, optionals, repetition and common imports', async () => {
    const g = larkToGrammar(`
      // a tiny command language
      start: command (";" command)*
      command: MOVE direction [NUMBER] | "stop"i
      direction: "north" | "south"
      MOVE: "move" | "go"
      %import common.NUMBER
    `);
    expect(await accepts(g, ['move north', 'go south 12;STOP', 'stop;move north 3.5', 'move east', 'go north;'])).toEqual([false, false, false, false, false]);
    // Without %ignore no space may separate tokens: the literal grammar.
    expect(await accepts(g, ['movenorth', 'gosouth12;Stop', 'stop'])).toEqual([true, true, true]);
  });

  it('%ignore lets the ignored terminal come before any token', async () => {
    const g = larkToGrammar(`
      start: pair ("," pair)*
      pair: KEY "=" VALUE
      KEY: /[a-z]+/
      VALUE: /[0-9]+/ | ESCAPED_STRING
      %import common.ESCAPED_STRING
      %import common.WS
      %ignore WS
    `);
    expect(await accepts(g, ['a=1', ' a = 1 , b="x y" ', 'a=1,', 'a=b', 'A=1'])).toEqual([true, true, false, false, false]);
  });

  it('~ repetition, aliases, ?rules and regex flags', async () => {
    const g = larkToGrammar(`
      ?start: code -> whole
      code: LETTER~2 DIGIT~1..3 /x/i
      %import common.LETTER
      %import common.DIGIT
    `);
    expect(await accepts(g, ['ab1x', 'AB123X', 'a1x', 'ab1234x'])).toEqual([true, true, false, false]);
  });

  it('what it cannot read is refused, naming it', () => {
    expect(() => larkToGrammar('rule: "a"')).toThrow(/no 'start' rule/);
    expect(() => larkToGrammar('start: other')).toThrow(/'other' is used but not defined/);
    expect(() => larkToGrammar('start: x\n%import python.NAME')).toThrow(/only %import common/);
    expect(() => larkToGrammar('start: _sep{a, b}')).toThrow(/template/);
  });
});

describe('call grammars (the Qwen family’s <tool_call> syntax)', () => {
  const qwen: CallSyntax = {
    open: '<tool_call>',
    frame: (name) => ({ before: `<tool_call>\n{"name": ${JSON.stringify(name)}, "arguments": `, after: '}\n</tool_call>' }),
    reasoning: { open: '<think>', close: '</think>' },
  };
  const call = (name: string, args: string) => `<tool_call>\n{"name": "${name}", "arguments": ${args}}\n</tool_call>`;
  const tools = [
    { name: 'sku', input: { kind: 'grammar' as const, grammar: regexGrammar('[A-Z]{3}-\\d+') } },
    { name: 'note', input: { kind: 'grammar' as const, grammar: larkToGrammar('start: LINE ("\\n" LINE)*\nLINE: /[^\\n"]+/') } },
    { name: 'get_weather', input: { kind: 'json' as const } },
    { name: 'free', input: { kind: 'text' as const } },
  ];

  it('auto: free text and calls; a custom tool’s input (JSON-escaped) must be in its grammar', async () => {
    const g = callGrammar(qwen, tools, 'auto');
    const results = await accepts(g, [
      'Just an answer, no call.',
      `<think>plan</think>\n\nLet me look.${call('sku', '{"input": "ABC-42"}')}`,
      call('note', '{"input": "line one\\nline two"}'),
      `${call('get_weather', '{"city": "Paris", "days": [1, 2]}')}\n${call('free', '{"input": "any \\"thing\\""}')}`,
      call('sku', '{"input": "abc-42"}'),
      call('note', '{"input": "a\\n\\nb"}'),
      'text <tool_call> that is not a call',
      call('unknown', '{}'),
    ]);
    expect(results).toEqual([true, true, true, true, false, false, false, false]);
  });

  it('required: at least one call; forced: exactly the named one', async () => {
    expect(await accepts(callGrammar(qwen, tools, 'required'), ['no call', `ok ${call('sku', '{"input": "ABC-1"}')}`])).toEqual([false, true]);
    expect(await accepts(callGrammar(qwen, tools, { name: 'sku' }), [call('sku', '{"input": "XYZ-9"}'), `\n${call('sku', '{"input": "XYZ-9"}')}`, call('get_weather', '{}'), 'text'])).toEqual([true, true, false, false]);
  });
});
