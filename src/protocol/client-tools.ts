/**
 * Tools whose calls the client runs, beyond plain functions — the shapes today's agent SDKs
 * declare (openai 7.59's `CustomTool`, `NamespaceTool`, `FunctionShellTool`,
 * `Tool.LocalShell`, `ApplyPatchTool`):
 * - `custom`: free-form text input, optionally constrained by a Lark or regex grammar;
 * - `namespace`: a named group of functions (and custom tools); calls carry the namespace;
 * - `shell` with a `local` environment, `local_shell` and `apply_patch`: the model asks, the
 *   client runs (the Agents SDK's `shellTool`/`applyPatchTool`, the AI SDK's `openai.tools.*`).
 * Hosted forms the runtime cannot provide (a `shell` in an OpenAI container) are refused by
 * name, as other hosted tools are.
 */
import { z } from 'zod';
import { AllowedCallers } from './program-items';

const toolName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, { message: 'Tool names must match ^[a-zA-Z0-9_-]{1,64}$.' });

/** `async: true` (OpenAI's background tool calls) is refused with why; false or absent is fine. */
const notAsync = z
  .boolean()
  .refine((v) => !v, { message: 'UNSUPPORTED:Asynchronous tool calls are not supported by the local runtime.' })
  .optional();

/** Custom, shell and patch tools are the model's only: a program (programmatic tool calling) calls functions and Python. */
const allowedCallers = z
  .array(z.enum(['direct', 'programmatic']))
  .refine((callers) => !callers.includes('programmatic'), { message: 'UNSUPPORTED:A program may call functions (and code_interpreter) only in the local runtime; allow only "direct" callers for this tool.' })
  .nullish();

/** The largest grammar definition accepted (OpenAI does not document one; this keeps compiling cheap). */
export const MAX_GRAMMAR_CHARS = 100_000;

export const CustomToolFormat = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text') }),
  z.strictObject({ type: z.literal('grammar'), syntax: z.enum(['lark', 'regex']), definition: z.string().min(1).max(MAX_GRAMMAR_CHARS) }),
]);
export type CustomToolFormat = z.infer<typeof CustomToolFormat>;

export const CustomTool = z.strictObject({
  type: z.literal('custom'),
  name: toolName,
  description: z.string().optional(),
  format: CustomToolFormat.optional(),
  defer_loading: z.boolean().optional(),
  allowed_callers: allowedCallers,
  async: notAsync,
});
export type CustomTool = z.infer<typeof CustomTool>;

/** A function of a namespace: a function tool, without the fields of programmatic callers. */
export const NamespaceFunction = z.strictObject({
  type: z.literal('function'),
  name: toolName,
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
  defer_loading: z.boolean().optional(),
  /** A namespace's function may be called by a program (programmatic tool calling), as a top-level function may. */
  allowed_callers: AllowedCallers,
  async: notAsync,
  output_schema: z
    .record(z.string(), z.unknown())
    .nullish()
    .refine((v) => v == null, { message: 'UNSUPPORTED:Output schemas are for programmatic tool calling, which the local runtime does not support.' }),
});

export const NamespaceTool = z.strictObject({
  type: z.literal('namespace'),
  name: toolName,
  description: z.string(),
  tools: z.array(z.discriminatedUnion('type', [NamespaceFunction, CustomTool])).min(1).max(128),
});
export type NamespaceTool = z.infer<typeof NamespaceTool>;

const LocalSkill = z.strictObject({ name: z.string().min(1), description: z.string(), path: z.string().min(1) });

/**
 * A hosted container environment: parsed, then refused by the tool's check below with why.
 * Typed `never`, as no accepted request ever has one.
 */
const HostedContainer = z.looseObject({ type: z.enum(['container_auto', 'container_reference']) }) as unknown as z.ZodType<never>;

export const ShellTool = z
  .strictObject({
    type: z.literal('shell'),
    environment: z.union([z.strictObject({ type: z.literal('local'), skills: z.array(LocalSkill).max(64).optional() }), HostedContainer]).nullish(),
    allowed_callers: allowedCallers,
  })
  .superRefine((tool, ctx) => {
    const type = (tool.environment as { type?: string } | null | undefined)?.type;
    if (type === 'container_auto' || type === 'container_reference')
      ctx.addIssue({
        code: 'custom',
        path: ['environment'],
        message: `UNSUPPORTED:A shell in an OpenAI-hosted container ('${type}') is not available in the local runtime; use environment {"type": "local"}, whose commands your client runs.`,
      });
  });
export type ShellTool = z.infer<typeof ShellTool>;

export const LocalShellTool = z.strictObject({ type: z.literal('local_shell') });
export type LocalShellTool = z.infer<typeof LocalShellTool>;

export const ApplyPatchTool = z.strictObject({ type: z.literal('apply_patch'), allowed_callers: allowedCallers });
export type ApplyPatchTool = z.infer<typeof ApplyPatchTool>;

/** The computer tool (GA), run by the client: the model asks for an action, the client does it and sends a screenshot. */
export const ComputerTool = z.strictObject({ type: z.literal('computer') });
export type ComputerTool = z.infer<typeof ComputerTool>;

/** The preview computer tool: the same, with the display and environment the model is told about. */
export const ComputerUsePreviewTool = z.strictObject({
  type: z.literal('computer_use_preview'),
  display_width: z.number().int().min(1).max(16_384),
  display_height: z.number().int().min(1).max(16_384),
  environment: z.enum(['windows', 'mac', 'linux', 'ubuntu', 'browser']),
});
export type ComputerUsePreviewTool = z.infer<typeof ComputerUsePreviewTool>;

/** `tool_choice` naming one of these tools. */
export const ClientToolChoice = z.union([
  z.strictObject({ type: z.literal('custom'), name: z.string().min(1) }),
  z.strictObject({ type: z.enum(['shell', 'apply_patch']) }),
]);

/** An `allowed_tools` entry naming one of these tools (a namespace's function: `{type: "function", name: "<ns>.<fn>"}`, or with `namespace`). */
export const AllowedClientTool = z.union([
  z.strictObject({ type: z.literal('custom'), name: z.string().min(1) }),
  z.strictObject({ type: z.enum(['shell', 'apply_patch', 'local_shell']) }),
  z.strictObject({ type: z.literal('namespace'), name: z.string().min(1) }),
]);
