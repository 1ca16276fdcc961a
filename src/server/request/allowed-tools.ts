/**
 * `tool_choice: {type: "allowed_tools", …}`: the client keeps its full `tools` list (so the
 * hosted prompt cache stays warm) but lets the model use only some of them this turn. Here
 * the model is told only about the allowed ones; `mode: "required"` asks for a call.
 */
import type { AllowedTool, CreateResponseRequest, Tool } from '../../protocol/create-request';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { isWebSearch } from '../model-view/builtin-functions';

/** The request's tools the model may use this turn (none for `tool_choice: "none"`). */
export function toolsInPlay(request: CreateResponseRequest): Tool[] {
  const tools = request.tools ?? [];
  const choice = request.tool_choice;
  if (choice === 'none') return [];
  if (typeof choice !== 'object' || choice.type !== 'allowed_tools') return tools;
  return tools.filter((tool) => choice.tools.some((allowed) => matches(allowed, tool)));
}

/** Every allowed entry must name one of `tools`: OpenAI answers 400 otherwise. */
export function checkAllowedTools(request: CreateResponseRequest): void {
  const choice = request.tool_choice;
  if (typeof choice !== 'object' || choice.type !== 'allowed_tools') return;
  const tools = request.tools ?? [];
  choice.tools.forEach((allowed, i) => {
    if (!tools.some((tool) => matches(allowed, tool)))
      throw invalidRequest(
        `Allowed tool '${allowed.type === 'function' ? allowed.name : allowed.type}' is not in the 'tools' parameter. List only tools the request defines.`,
        `tool_choice.tools[${i}]`,
        Codes.invalidValue,
      );
  });
  if (choice.mode === 'required' && choice.tools.length === 0)
    throw invalidRequest("Tool choice mode 'required' needs at least one allowed tool.", 'tool_choice.tools', Codes.invalidValue);
}

function matches(allowed: AllowedTool, tool: Tool): boolean {
  if (allowed.type === 'function') return tool.type === 'function' && tool.name === allowed.name;
  if (allowed.type === 'code_interpreter') return tool.type === 'code_interpreter';
  if (allowed.type === 'file_search') return tool.type === 'file_search';
  // The web search names (dated or preview) all mean the one web search tool.
  return isWebSearch(tool);
}
