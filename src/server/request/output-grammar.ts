/**
 * The grammar a generation is held to when custom tools with grammars are in play: the whole
 * output in the chat family's call syntax, each such tool's input in its grammar's language,
 * other tools' arguments any JSON (`chat/grammar/call-grammar.ts`). `tool_choice` decides
 * whether a call may, must, or must be exactly one named call.
 */
import type { ToolSpec } from '../../chat/chat-format';
import { callGrammar, type CallGrammarTool, type CallSyntax } from '../../chat/grammar/call-grammar';
import type { Grammar } from '../../chat/grammar/grammar';
import type { CreateResponseRequest } from '../../protocol/create-request';
import type { ClientToolTarget } from '../model-view/client-tools';
import { forcedToolName } from './tool-choice';
import { parseToolGrammar } from './tool-grammars';

export function outputGrammarFor(
  syntax: CallSyntax | undefined,
  tools: readonly ToolSpec[],
  targets: ReadonlyMap<string, ClientToolTarget>,
  request: CreateResponseRequest,
): Grammar | undefined {
  const grammarOf = (spec: ToolSpec) => {
    const target = targets.get(spec.name);
    return target?.kind === 'custom' && target.format?.type === 'grammar' ? target.format : undefined;
  };
  // Without a grammar tool, generation stays as it is; without a call syntax the request was refused (tool-grammars.ts).
  if (!syntax || !tools.some(grammarOf)) return undefined;
  const callTools = tools.map((spec): CallGrammarTool => {
    const format = grammarOf(spec);
    if (format) return { name: spec.name, input: { kind: 'grammar', grammar: parseToolGrammar(format, 'tools') } };
    return { name: spec.name, input: { kind: targets.get(spec.name)?.kind === 'custom' ? 'text' : 'json' } };
  });
  const choice = request.tool_choice;
  const forced = forcedToolName(choice, request.tools ?? []);
  const required = choice === 'required' || (typeof choice === 'object' && choice.type === 'allowed_tools' && choice.mode === 'required');
  return callGrammar(syntax, callTools, forced && tools.some((t) => t.name === forced) ? { name: forced } : required ? 'required' : 'auto');
}
