/**
 * `tool_choice: {type: "allowed_tools", …}`: the client keeps its full `tools` list (so the
 * hosted prompt cache stays warm) but lets the model use only some of them this turn. Here
 * the model is told only about the allowed ones; `mode: "required"` asks for a call.
 * Entries name a function (also a namespace's: `<namespace>.<name>`, or with `namespace`), a
 * custom tool, a whole namespace, or a tool by type (`shell`, `apply_patch`, builtins).
 */
import type { AllowedTool, CreateResponseRequest, Tool } from '../../protocol/create-request';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { namespacedName } from '../model-view/client-tools';
import { findNamedTool } from './named-tools';

/** The request's tools the model may use this turn (none for `tool_choice: "none"`); a namespace keeps only its allowed members. */
/** Whether two tool types name the same builtin tool (the tool registry knows: `ToolRegistry.sameTool`). */
export type SameTool = (a: string, b: string) => boolean;

export function toolsInPlay(request: CreateResponseRequest, sameTool: SameTool): Tool[] {
  const tools = request.tools ?? [];
  const choice = request.tool_choice;
  if (choice === 'none') return [];
  if (typeof choice !== 'object' || choice.type !== 'allowed_tools') return tools;
  return tools.flatMap((tool): Tool[] => {
    if (tool.type !== 'namespace') return choice.tools.some((allowed) => matches(allowed, tool, tools, sameTool)) ? [tool] : [];
    const members = tool.tools.filter((member) => choice.tools.some((allowed) => matchesMember(allowed, tool.name, member, tools)));
    return members.length ? [{ ...tool, tools: members }] : [];
  });
}

/** Every allowed entry must name one of `tools`: OpenAI answers 400 otherwise. */
export function checkAllowedTools(request: CreateResponseRequest, sameTool: SameTool): void {
  const choice = request.tool_choice;
  if (typeof choice !== 'object' || choice.type !== 'allowed_tools') return;
  const tools = request.tools ?? [];
  choice.tools.forEach((allowed, i) => {
    const found = tools.some((tool) => (tool.type === 'namespace' ? tool.tools.some((member) => matchesMember(allowed, tool.name, member, tools)) : matches(allowed, tool, tools, sameTool)));
    if (!found)
      throw invalidRequest(
        `Allowed tool '${'name' in allowed ? allowed.name : allowed.type}' is not in the 'tools' parameter. List only tools the request defines.`,
        `tool_choice.tools[${i}]`,
        Codes.invalidValue,
      );
  });
  if (choice.mode === 'required' && choice.tools.length === 0)
    throw invalidRequest("Tool choice mode 'required' needs at least one allowed tool.", 'tool_choice.tools', Codes.invalidValue);
}

function matches(allowed: AllowedTool, tool: Tool, tools: readonly Tool[], sameTool: SameTool): boolean {
  switch (allowed.type) {
    case 'function':
    case 'custom':
      return tool.type === allowed.type && findNamedTool(tools, allowed.type, allowed.name, 'namespace' in allowed ? allowed.namespace : undefined) === tool.name;
    case 'namespace':
      return false; // a whole namespace: see matchesMember
    case 'shell':
    case 'apply_patch':
    case 'local_shell':
      return tool.type === allowed.type;
    default:
      // A builtin tool by type: its dated or preview names mean the same tool.
      return sameTool(allowed.type, tool.type);
  }
}

/** Whether `allowed` admits `member` of namespace `namespace` (named as tool_choice names it: see named-tools.ts). */
function matchesMember(allowed: AllowedTool, namespace: string, member: { type: 'function' | 'custom'; name: string }, tools: readonly Tool[]): boolean {
  if (allowed.type === 'namespace') return allowed.name === namespace;
  if (allowed.type !== member.type) return false;
  return findNamedTool(tools, allowed.type, allowed.name, 'namespace' in allowed ? allowed.namespace : undefined) === namespacedName(namespace, member.name);
}
