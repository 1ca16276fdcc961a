/**
 * Custom tools with a grammar (`format: {type: "grammar", syntax, definition}`) need an engine
 * that constrains the model's input to it. A model whose engine cannot honour the syntax is
 * refused here, naming the tool's syntax: an unconstrained call must never pass for a
 * constrained one.
 */
import { GrammarError, type Grammar } from '../../chat/grammar/grammar';
import { larkToGrammar } from '../../chat/grammar/lark-grammar';
import { regexToExpr } from '../../chat/grammar/regex-grammar';
import type { CreateResponseRequest } from '../../protocol/create-request';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import type { ServedModel } from '../state/server-state';

/** A custom tool's grammar read into a grammar; a 400 naming `param` (its definition) when it cannot be read. */
export function parseToolGrammar(format: { syntax: 'lark' | 'regex'; definition: string }, param: string): Grammar {
  try {
    if (format.syntax === 'lark') return larkToGrammar(format.definition);
    return { rules: { root: regexToExpr(format.definition, 'regex grammar') }, root: 'root' };
  } catch (err) {
    if (!(err instanceof GrammarError)) throw err;
    throw invalidRequest(`Invalid '${param}': ${err.message}.`, param, Codes.invalidValue);
  }
}

/** Each grammar of a custom tool the model will be shown, with where it is in the request. */
export function customToolGrammars(request: CreateResponseRequest): Array<{ syntax: 'lark' | 'regex'; definition: string; name: string; param: string }> {
  if (request.tool_choice === 'none') return [];
  return (request.tools ?? []).flatMap((tool, i) => {
    if (tool.type === 'custom') return tool.format?.type === 'grammar' ? [{ ...tool.format, name: tool.name, param: `tools[${i}].format.syntax` }] : [];
    if (tool.type !== 'namespace') return [];
    return tool.tools.flatMap((member, j) =>
      member.type === 'custom' && member.format?.type === 'grammar' ? [{ ...member.format, name: `${tool.name}.${member.name}`, param: `tools[${i}].tools[${j}].format.syntax` }] : [],
    );
  });
}

export function checkToolGrammars(request: CreateResponseRequest, model: ServedModel): void {
  const honoured = model.engine.grammarSyntaxes ?? new Set();
  const grammars = customToolGrammars(request);
  for (const grammar of grammars) {
    if (honoured.has(grammar.syntax)) continue;
    const can = honoured.size ? ` It honours ${[...honoured].join(' and ')} grammars.` : ' It honours no grammars.';
    throw invalidRequest(
      `The custom tool '${grammar.name}' has a ${grammar.syntax} grammar, which the model '${model.info.id}' cannot be held to (its ${model.engine.name} engine does not support ${grammar.syntax} grammars), so its input would not be guaranteed to match.${can} Use format {"type": "text"}, or a model whose engine supports ${grammar.syntax} grammars.`,
      grammar.param,
      Codes.unsupportedParameter,
    );
  }
  if (grammars.length === 0) return;
  const [first] = grammars;
  if (!model.format.callSyntax)
    throw invalidRequest(
      `The custom tool '${first!.name}' has a grammar, but the model '${model.info.id}' writes its tool calls in a form (its '${model.format.name}' chat format) this runtime cannot constrain. Use format {"type": "text"}, or a Qwen-family model.`,
      first!.param,
      Codes.unsupportedParameter,
    );
  if (request.text?.format?.type === 'json_schema' || request.text?.format?.type === 'json_object')
    throw invalidRequest("A custom tool grammar and structured output (text.format) cannot constrain one generation together: send one of them.", 'text.format', Codes.unsupportedParameter);
  // Read each now: a grammar that cannot be read is refused before anything runs.
  for (const grammar of grammars) parseToolGrammar(grammar, grammar.param.replace(/syntax$/, 'definition'));
}
