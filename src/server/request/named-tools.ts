/**
 * Finding a function or custom tool of a request by the name a client uses for it: a
 * top-level tool's name, `<namespace>.<name>` (the Agents SDK's form), `namespace` given
 * apart, or a bare name that only one namespace has. Answers with the model-side name.
 */
import type { Tool } from '../../protocol/create-request';
import { namespacedName } from '../model-view/client-tools';

type Named = { kind: 'function' | 'custom'; name: string; namespace?: string };

function namedTools(tools: readonly Tool[]): Named[] {
  return tools.flatMap((tool): Named[] => {
    if (tool.type === 'function' || tool.type === 'custom') return [{ kind: tool.type, name: tool.name }];
    if (tool.type === 'namespace') return tool.tools.map((member) => ({ kind: member.type, name: member.name, namespace: tool.name }));
    return [];
  });
}

/** The model-side name of the tool `kind` named `name` (in `namespace`), or null when there is none. */
export function findNamedTool(tools: readonly Tool[], kind: Named['kind'], name: string, namespace?: string): string | null {
  const all = namedTools(tools).filter((t) => t.kind === kind);
  const dot = name.indexOf('.');
  const [ns, bare] = namespace !== undefined ? [namespace, name] : dot > 0 ? [name.slice(0, dot), name.slice(dot + 1)] : [undefined, name];
  const exact = all.find((t) => t.namespace === ns && t.name === bare);
  if (exact) return exact.namespace !== undefined ? namespacedName(exact.namespace, exact.name) : exact.name;
  if (ns !== undefined) return null;
  const inNamespaces = all.filter((t) => t.namespace !== undefined && t.name === bare);
  return inNamespaces.length === 1 ? namespacedName(inNamespaces[0]!.namespace!, bare) : null;
}
