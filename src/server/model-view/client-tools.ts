/**
 * How the tools whose calls the client runs look to a model without native forms for them:
 * as functions, in its family's own tool format (`chat/`), so every chat format and parser
 * works unchanged —
 * - a `custom` tool: a function of one string, `input` (its grammar, if any, in the description);
 * - a function (or custom tool) of a namespace: `<namespace>__<name>` (as MCP tools are named);
 * - `shell`: a function of `commands` (+ `timeout_ms`, `max_output_length`), the call item's own fields;
 * - `local_shell`: a function of `command` (argv, + `env`, `timeout_ms`, `working_directory`, `user`);
 * - `apply_patch`: a function of `operation` (`create_file`/`update_file`/`delete_file`, `path`, `diff`).
 * What the model writes is read back into each call item's fields here too (`clientCallFields`).
 */
import type { ToolSpec } from '../../chat/chat-format';
import { ComputerAction } from '../../protocol/client-call-items';
import type { ComputerUsePreviewTool, CustomTool, CustomToolFormat, NamespaceTool, ShellTool } from '../../protocol/client-tools';
import type { Tool } from '../../protocol/create-request';
import { callableBy } from '../../protocol/program-items';

/** What a model-side function name stands for. */
export type ClientToolTarget =
  | { kind: 'function'; name: string; namespace?: string }
  | { kind: 'custom'; name: string; namespace?: string; format?: CustomToolFormat }
  | { kind: 'shell' }
  | { kind: 'local_shell' }
  | { kind: 'apply_patch' }
  | { kind: 'computer' };

/** The model-side name of a namespace's function or custom tool. */
export function namespacedName(namespace: string, name: string): string {
  return `${namespace}__${name}`;
}

export const SHELL_NAME = 'shell';
export const LOCAL_SHELL_NAME = 'local_shell';
export const APPLY_PATCH_NAME = 'apply_patch';
export const COMPUTER_NAME = 'computer';

const integer = (description: string) => ({ type: 'integer', minimum: 0, description });

function shellSpec(tool: ShellTool): ToolSpec {
  const environment = tool.environment as { type: string; skills?: Array<{ name: string; path: string; description: string }> } | null | undefined;
  const skills = environment?.type === 'local' ? (environment.skills ?? []) : [];
  const listed = skills.length ? `\n\nSkills available in the environment (read their instructions at the path before using one):\n${skills.map((s) => `- ${s.name} (${s.path}): ${s.description}`).join('\n')}` : '';
  return {
    name: SHELL_NAME,
    description: `Run shell commands on the user's machine and see what they print. The commands run in order; for each one you get its stdout, stderr and exit code (or that it timed out).${listed}`,
    parameters: {
      type: 'object',
      properties: {
        commands: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'The commands to run, in order, e.g. ["ls -la", "cat README.md"].' },
        timeout_ms: integer('Stop a command that runs longer than this (optional).'),
        max_output_length: integer('Keep at most this many characters of each output (optional).'),
      },
      required: ['commands'],
    },
  };
}

const LOCAL_SHELL_SPEC: ToolSpec = {
  name: LOCAL_SHELL_NAME,
  description: "Run one program on the user's machine and see its output. `command` is the program and its arguments, e.g. [\"ls\", \"-la\"].",
  parameters: {
    type: 'object',
    properties: {
      command: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'The program and its arguments (argv).' },
      env: { type: 'object', additionalProperties: { type: 'string' }, description: 'Environment variables to set (optional).' },
      timeout_ms: integer('Stop the program after this long (optional).'),
      working_directory: { type: 'string', description: 'The directory to run it in (optional).' },
      user: { type: 'string', description: 'The user to run it as (optional).' },
    },
    required: ['command'],
  },
};

const APPLY_PATCH_SPEC: ToolSpec = {
  name: APPLY_PATCH_NAME,
  description:
    "Create, update or delete one file in the user's workspace. For create_file and update_file, `diff` is a V4A diff without file headers: sections starting with @@, lines starting with '+' (added), '-' (removed) or ' ' (context); for create_file every line starts with '+'.",
  parameters: {
    type: 'object',
    properties: {
      operation: {
        type: 'object',
        properties: {
          type: { type: 'string', enum: ['create_file', 'update_file', 'delete_file'] },
          path: { type: 'string', description: 'The file, relative to the workspace.' },
          diff: { type: 'string', description: 'The V4A diff (create_file and update_file).' },
        },
        required: ['type', 'path'],
      },
    },
    required: ['operation'],
  },
};

/** The computer tool: one function of `action`, the SDK's action union (coordinates in screenshot pixels). */
function computerSpec(tool: ComputerUsePreviewTool | undefined): ToolSpec {
  const screen = tool ? ` The display is ${tool.display_width}×${tool.display_height} pixels (${tool.environment}).` : '';
  const point = { x: { type: 'integer' }, y: { type: 'integer' } };
  const keys = { type: 'array', items: { type: 'string' } };
  return {
    name: COMPUTER_NAME,
    description: `Control the user's computer: do one action, then see a screenshot of the screen.${screen} Coordinates are pixels of the screenshot. Start with {"type": "screenshot"} to see the screen.`,
    parameters: {
      type: 'object',
      properties: {
        action: {
          type: 'object',
          description:
            'One of: {"type":"click","button":"left|right|wheel|back|forward","x","y"}, {"type":"double_click","x","y"}, {"type":"drag","path":[{"x","y"},…]}, {"type":"keypress","keys":["CTRL","C"]}, {"type":"move","x","y"}, {"type":"screenshot"}, {"type":"scroll","x","y","scroll_x","scroll_y"}, {"type":"type","text"}, {"type":"wait"}.',
          properties: {
            type: { type: 'string', enum: ['click', 'double_click', 'drag', 'keypress', 'move', 'screenshot', 'scroll', 'type', 'wait'] },
            button: { type: 'string', enum: ['left', 'right', 'wheel', 'back', 'forward'] },
            ...point,
            path: { type: 'array', items: { type: 'object', properties: point, required: ['x', 'y'] } },
            keys,
            scroll_x: { type: 'integer' },
            scroll_y: { type: 'integer' },
            text: { type: 'string' },
          },
          required: ['type'],
        },
      },
      required: ['action'],
    },
  };
}

function customSpec(tool: CustomTool, name: string, namespace?: NamespaceTool): ToolSpec {
  const grammar = tool.format?.type === 'grammar' ? `\n\nThe input must match this ${tool.format.syntax === 'lark' ? 'Lark grammar' : 'regular expression'}:\n${tool.format.definition}` : '';
  const about = [namespace?.description, tool.description].filter(Boolean).join(' ');
  return {
    name,
    description: `${about}${about ? '\n\n' : ''}Free-form input: pass it whole as the string \`input\`.${grammar}`,
    parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
  };
}

/** The functions the model is told about for one of these tools, each with what it stands for. Empty for other tools. */
export function clientToolFunctions(tool: Tool): Array<{ spec: ToolSpec; target: ClientToolTarget }> {
  switch (tool.type) {
    case 'custom':
      return [{ spec: customSpec(tool, tool.name), target: { kind: 'custom', name: tool.name, ...(tool.format ? { format: tool.format } : {}) } }];
    case 'namespace':
      // A function only a program may call is not the model's to see.
      return tool.tools.flatMap((member) => {
        if (!callableBy(member.allowed_callers, 'direct')) return [];
        const name = namespacedName(tool.name, member.name);
        if (member.type === 'custom') return { spec: customSpec(member, name, tool), target: { kind: 'custom', name: member.name, namespace: tool.name, ...(member.format ? { format: member.format } : {}) } };
        const description = [tool.description, member.description].filter(Boolean).join(' ');
        return { spec: { name, description, parameters: member.parameters ?? null }, target: { kind: 'function', name: member.name, namespace: tool.name } };
      });
    case 'shell':
      return [{ spec: shellSpec(tool), target: { kind: 'shell' } }];
    case 'local_shell':
      return [{ spec: LOCAL_SHELL_SPEC, target: { kind: 'local_shell' } }];
    case 'apply_patch':
      return [{ spec: APPLY_PATCH_SPEC, target: { kind: 'apply_patch' } }];
    case 'computer':
    case 'computer_use_preview':
      return [{ spec: computerSpec(tool.type === 'computer_use_preview' ? tool : undefined), target: { kind: 'computer' } }];
    default:
      return [];
  }
}

/** The fields a call item takes from what the model wrote; null when the arguments do not fit (the call then stays text). */
export type ClientCallFields =
  | { kind: 'function'; arguments: string }
  | { kind: 'custom'; input: string }
  | { kind: 'shell'; action: { commands: string[]; timeout_ms: number | null; max_output_length: number | null } }
  | { kind: 'local_shell'; action: { type: 'exec'; command: string[]; env: Record<string, string>; timeout_ms?: number | null; working_directory?: string | null; user?: string | null } }
  | { kind: 'apply_patch'; operation: { type: 'create_file' | 'update_file'; path: string; diff: string } | { type: 'delete_file'; path: string } }
  | { kind: 'computer'; action: ComputerAction };

export function clientCallFields(target: ClientToolTarget, args: string): ClientCallFields | null {
  if (target.kind === 'function') return { kind: 'function', arguments: args };
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return null;
  }
  if (!isObject(parsed)) return null;
  switch (target.kind) {
    case 'custom': {
      if (typeof parsed.input === 'string') return { kind: 'custom', input: parsed.input };
      // A model that named the one string otherwise: that string is the input.
      const strings = Object.values(parsed).filter((v): v is string => typeof v === 'string');
      return strings.length === 1 && Object.keys(parsed).length === 1 ? { kind: 'custom', input: strings[0]! } : null;
    }
    case 'shell': {
      const { commands, timeout_ms, max_output_length } = parsed;
      if (!isStringList(commands) || !isOptionalCount(timeout_ms) || !isOptionalCount(max_output_length)) return null;
      return { kind: 'shell', action: { commands, timeout_ms: timeout_ms ?? null, max_output_length: max_output_length ?? null } };
    }
    case 'local_shell': {
      const { command, env, timeout_ms, working_directory, user } = parsed;
      if (!isStringList(command) || !isOptionalCount(timeout_ms) || !isOptionalString(working_directory) || !isOptionalString(user)) return null;
      if (env !== undefined && env !== null && !(isObject(env) && Object.values(env).every((v) => typeof v === 'string'))) return null;
      return {
        kind: 'local_shell',
        action: {
          type: 'exec',
          command,
          env: (env ?? {}) as Record<string, string>,
          ...(timeout_ms != null ? { timeout_ms } : {}),
          ...(working_directory != null ? { working_directory } : {}),
          ...(user != null ? { user } : {}),
        },
      };
    }
    case 'apply_patch': {
      const operation = parsed.operation;
      if (!isObject(operation) || typeof operation.path !== 'string' || operation.path === '') return null;
      if (operation.type === 'delete_file') return { kind: 'apply_patch', operation: { type: 'delete_file', path: operation.path } };
      if ((operation.type === 'create_file' || operation.type === 'update_file') && typeof operation.diff === 'string')
        return { kind: 'apply_patch', operation: { type: operation.type, path: operation.path, diff: operation.diff } };
      return null;
    }
    case 'computer': {
      // Only an action of the SDK's union becomes a computer_call; anything else stays text.
      const action = ComputerAction.safeParse(parsed.action);
      return action.success ? { kind: 'computer', action: action.data } : null;
    }
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string');
}
function isOptionalCount(v: unknown): v is number | null | undefined {
  return v === undefined || v === null || (Number.isInteger(v) && (v as number) >= 0);
}
function isOptionalString(v: unknown): v is string | null | undefined {
  return v === undefined || v === null || typeof v === 'string';
}
