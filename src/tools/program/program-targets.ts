/**
 * What a program may call: each tool of the request whose `allowed_callers` includes
 * `"programmatic"` — a function as `tools.<name>`, a namespace's function as
 * `tools.<namespace>.<name>`, a builtin tool's functions (Python: `tools.python`) — and the
 * `program` function the model is told about, which lists them.
 */
import type { ToolSpec } from '../../chat/chat-format';
import type { ToolPeers } from '../../ports/builtin-tool';
import { callableBy, PROGRAM_FUNCTION } from '../../protocol/program-items';

/** A client function (the response waits for its output) or a builtin tool's function (run in place). */
export type ProgramTarget = { kind: 'client'; name: string; namespace?: string; spec: ToolSpec } | { kind: 'builtin'; name: string; spec: ToolSpec };

/** The targets by path (`a` or `a.b`), in the request's order. */
export function programTargets(peers: ToolPeers | undefined): Map<string, { path: string[]; target: ProgramTarget }> {
  const targets = new Map<string, { path: string[]; target: ProgramTarget }>();
  const add = (path: string[], target: ProgramTarget) => {
    if (!targets.has(path.join('.'))) targets.set(path.join('.'), { path, target });
  };
  peers?.tools.forEach((tool, index) => {
    if (tool.type === 'function') {
      if (callableBy(tool.allowed_callers, 'programmatic')) add([tool.name], { kind: 'client', name: tool.name, spec: { name: tool.name, description: tool.description, parameters: tool.parameters } });
    } else if (tool.type === 'namespace') {
      for (const member of tool.tools)
        if (member.type === 'function' && callableBy(member.allowed_callers, 'programmatic'))
          add([tool.name, member.name], { kind: 'client', name: member.name, namespace: tool.name, spec: { name: member.name, description: member.description, parameters: member.parameters ?? null } });
    } else if ('allowed_callers' in tool && callableBy(tool.allowed_callers, 'programmatic')) {
      for (const spec of peers.functionsAt(index)) add([spec.name], { kind: 'builtin', name: spec.name, spec });
    }
  });
  return targets;
}

export { PROGRAM_FUNCTION };

/** The `program` function as the model sees it: how to write one, and the tools it may call. */
export function programSpec(targets: ReadonlyMap<string, { path: string[]; target: ProgramTarget }>): ToolSpec {
  const listed = [...targets.values()].map(({ path, target }) => {
    const about = target.spec.description ? ` — ${target.spec.description}` : '';
    return `- await tools.${path.join('.')}(${JSON.stringify(target.spec.parameters ?? { type: 'object' })})${about}`;
  });
  return {
    name: PROGRAM_FUNCTION,
    description: [
      'Run a JavaScript program that calls tools. `code` is the body of an async function: use `await`, and `return` a JSON value — the result you are shown.',
      'Each tool call resolves to the tool’s output text (a string); a failed call throws. There is no network, DOM, storage, timer or import, and console output is not shown.',
      listed.length ? `Tools the program may call:\n${listed.join('\n')}` : 'No tool is available to programs in this request.',
    ].join('\n'),
    parameters: { type: 'object', properties: { code: { type: 'string', description: 'The body of an async JavaScript function.' } }, required: ['code'] },
  };
}
