/**
 * `tool_choice` against the request's tools: checked as OpenAI checks it, and read as the
 * model-side function name a forced call must use. A namespace's function is named
 * `<namespace>.<name>` (the Agents SDK's form), or by its bare name when only one namespace
 * has it; `{type: "custom", name}`, `{type: "shell"}` and `{type: "apply_patch"}` name those tools.
 */
import type { CreateResponseRequest, Tool, ToolChoice } from '../../protocol/create-request';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { APPLY_PATCH_NAME, SHELL_NAME } from '../model-view/client-tools';
import { findNamedTool } from './named-tools';
import { PROGRAM_FUNCTION } from '../../protocol/program-items';
import { checkAllowedTools, type SameTool } from './allowed-tools';

/** The function a forced `tool_choice` names, as the model knows it; undefined when it forces none. */
export function forcedToolName(choice: ToolChoice | undefined, tools: readonly Tool[]): string | undefined {
  if (typeof choice !== 'object' || choice.type === 'allowed_tools') return undefined;
  if ('name' in choice) return findNamedTool(tools, choice.type, choice.name) ?? undefined;
  if (choice.type === 'programmatic_tool_calling') return PROGRAM_FUNCTION;
  return choice.type === 'shell' ? SHELL_NAME : APPLY_PATCH_NAME;
}

/** OpenAI's checks: `required` needs tools, and a named tool must be among them. */
export function checkToolChoice(request: CreateResponseRequest, sameTool: SameTool): void {
  const choice = request.tool_choice;
  const tools = request.tools ?? [];
  if (choice === 'required' && tools.length === 0)
    throw invalidRequest("Tool choice 'required' must be specified with 'tools' parameter.", 'tool_choice', Codes.invalidValue);
  if (typeof choice !== 'object') return;
  if (choice.type === 'allowed_tools') return checkAllowedTools(request, sameTool);
  if (!('name' in choice)) {
    if (!tools.some((t) => t.type === choice.type)) throw invalidRequest(`Tool choice '${choice.type}' not found in 'tools' parameter.`, 'tool_choice', Codes.invalidValue);
    return;
  }
  if (!findNamedTool(tools, choice.type, choice.name)) throw invalidRequest(`Tool choice '${choice.name}' not found in 'tools' parameter.`, 'tool_choice', Codes.invalidValue);
}
