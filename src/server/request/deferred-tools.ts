/**
 * Deferred tools (`defer_loading: true` on a function, a custom tool, a namespace's member, or an MCP server):
 * not listed to the model at the prompt's start. A tool that loads them (tool search,
 * `BuiltinTool.loadsDeferredTools`) makes them callable later, showing them where it loaded
 * them — so the prompt's leading part, and the engine's cached prefix, stay as they were.
 */
import type { Tool } from '../../protocol/create-request';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';

interface MaybeDeferred {
  defer_loading?: boolean | undefined;
}

const deferred = (tool: MaybeDeferred) => tool.defer_loading === true;

/**
 * The tools as listed at the prompt's start: deferred functions and custom tools left out (a
 * namespace keeps its other members, or goes). A deferred builtin entry (an MCP server) stays:
 * its session leaves its deferred tools out of its functions and offers them to the search.
 */
export function withoutDeferred(tools: readonly Tool[]): Tool[] {
  return tools.flatMap((tool): Tool[] => {
    if (tool.type === 'namespace') {
      const members = tool.tools.filter((member) => !deferred(member));
      if (members.length === tool.tools.length) return [tool];
      return members.length ? [{ ...tool, tools: members }] : [];
    }
    return (tool.type === 'function' || tool.type === 'custom') && deferred(tool) ? [] : [tool];
  });
}

/** Where the request's first deferred tool is (`tools[i]`, or `tools[i].tools[j]` for a namespace's member), if any. */
export function firstDeferred(tools: readonly Tool[]): { param: string; name: string } | null {
  for (const [i, tool] of tools.entries()) {
    if (tool.type === 'namespace') {
      const j = tool.tools.findIndex(deferred);
      if (j >= 0) return { param: `tools[${i}].tools[${j}].defer_loading`, name: `${tool.name}.${tool.tools[j]!.name}` };
    } else if (deferred(tool as MaybeDeferred)) return { param: `tools[${i}].defer_loading`, name: 'name' in tool ? tool.name : 'server_label' in tool ? tool.server_label : tool.type };
  }
  return null;
}

/** Deferred tools need a tool that loads them: without one they could never be called (a 400 naming the first). */
export function checkDeferredTools(tools: readonly Tool[], loadsDeferred: (type: string) => boolean): void {
  const first = firstDeferred(tools);
  if (!first || tools.some((tool) => loadsDeferred(tool.type))) return;
  throw invalidRequest(
    `The tool '${first.name}' is deferred (defer_loading: true), but no tool in 'tools' loads deferred tools: add {"type": "tool_search"} to 'tools', or remove defer_loading.`,
    first.param,
    Codes.invalidValue,
  );
}
