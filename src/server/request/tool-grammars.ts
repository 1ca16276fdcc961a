/**
 * Custom tools with a grammar (`format: {type: "grammar", syntax, definition}`) need an engine
 * that constrains the model's input to it. A model whose engine cannot honour the syntax is
 * refused here, naming the tool's syntax: an unconstrained call must never pass for a
 * constrained one.
 */
import type { CreateResponseRequest } from '../../protocol/create-request';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import type { ServedModel } from '../server-state';

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
  for (const grammar of customToolGrammars(request)) {
    if (honoured.has(grammar.syntax)) continue;
    const can = honoured.size ? ` It honours ${[...honoured].join(' and ')} grammars.` : ' It honours no grammars.';
    throw invalidRequest(
      `The custom tool '${grammar.name}' has a ${grammar.syntax} grammar, which the model '${model.info.id}' cannot be held to (its ${model.engine.name} engine does not support ${grammar.syntax} grammars), so its input would not be guaranteed to match.${can} Use format {"type": "text"}, or a model whose engine supports ${grammar.syntax} grammars.`,
      grammar.param,
      Codes.unsupportedParameter,
    );
  }
}
