/**
 * Items of the tools whose calls the client runs (see `client-tools.ts`), as the server
 * returns and stores them — OpenAI's shapes (openai 7.59 `ResponseCustomToolCall`,
 * `ResponseFunctionShellToolCall`, `ResponseItem.LocalShellCall`, `ResponseApplyPatchToolCall`
 * and their outputs). Calls are made by the model; outputs come from the client's next request.
 */
import { z } from 'zod';
import { InputFile, InputImage, InputText } from './content-parts';

const ItemStatus = z.enum(['in_progress', 'completed', 'incomplete']);

/** What a tool returned to the model: text, or text, image and file parts (as a function output). */
export const ToolOutputContent = z.union([z.string(), z.array(z.union([InputText, InputImage, InputFile]))]);

export const CustomToolCall = z.object({
  type: z.literal('custom_tool_call'),
  id: z.string(),
  call_id: z.string(),
  name: z.string(),
  /** The model's free-form input (constrained by the tool's grammar where the engine can). */
  input: z.string(),
  namespace: z.string().optional(),
  status: ItemStatus,
});
export type CustomToolCall = z.infer<typeof CustomToolCall>;

export const CustomToolCallOutput = z.object({
  type: z.literal('custom_tool_call_output'),
  id: z.string(),
  call_id: z.string(),
  output: ToolOutputContent,
  status: ItemStatus,
});
export type CustomToolCallOutput = z.infer<typeof CustomToolCallOutput>;

export const ShellAction = z.object({ commands: z.array(z.string()), timeout_ms: z.number().int().nullable(), max_output_length: z.number().int().nullable() });

export const ShellCall = z.object({
  type: z.literal('shell_call'),
  id: z.string(),
  call_id: z.string(),
  action: ShellAction,
  /** Where the client runs it: always the client's own (`local`) here. */
  environment: z.object({ type: z.literal('local') }).nullable(),
  status: ItemStatus,
});
export type ShellCall = z.infer<typeof ShellCall>;

export const ShellOutcome = z.union([z.object({ type: z.literal('exit'), exit_code: z.number().int() }), z.object({ type: z.literal('timeout') })]);

export const ShellCallOutput = z.object({
  type: z.literal('shell_call_output'),
  id: z.string(),
  call_id: z.string(),
  max_output_length: z.number().int().nullable(),
  /** One entry per command: what it printed and how it ended. */
  output: z.array(z.object({ stdout: z.string(), stderr: z.string(), outcome: ShellOutcome })),
  status: ItemStatus,
});
export type ShellCallOutput = z.infer<typeof ShellCallOutput>;

export const LocalShellAction = z.object({
  type: z.literal('exec'),
  command: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  timeout_ms: z.number().int().nullish(),
  user: z.string().nullish(),
  working_directory: z.string().nullish(),
});

export const LocalShellCall = z.object({ type: z.literal('local_shell_call'), id: z.string(), call_id: z.string(), action: LocalShellAction, status: ItemStatus });
export type LocalShellCall = z.infer<typeof LocalShellCall>;

/** OpenAI's type has no `call_id` (its `id` names the call); we keep both: the item's own id and the call it answers. */
export const LocalShellCallOutput = z.object({
  type: z.literal('local_shell_call_output'),
  id: z.string(),
  call_id: z.string(),
  /** What the command printed, as the client sent it (a JSON string by convention). */
  output: z.string(),
  status: ItemStatus.nullish(),
});
export type LocalShellCallOutput = z.infer<typeof LocalShellCallOutput>;

export const PatchOperation = z.discriminatedUnion('type', [
  z.object({ type: z.literal('create_file'), path: z.string(), diff: z.string() }),
  z.object({ type: z.literal('update_file'), path: z.string(), diff: z.string() }),
  z.object({ type: z.literal('delete_file'), path: z.string() }),
]);

export const ApplyPatchCall = z.object({
  type: z.literal('apply_patch_call'),
  id: z.string(),
  call_id: z.string(),
  operation: PatchOperation,
  status: z.enum(['in_progress', 'completed']),
});
export type ApplyPatchCall = z.infer<typeof ApplyPatchCall>;

export const ApplyPatchCallOutput = z.object({
  type: z.literal('apply_patch_call_output'),
  id: z.string(),
  call_id: z.string(),
  status: z.enum(['completed', 'failed']),
  output: z.string().nullish(),
});
export type ApplyPatchCallOutput = z.infer<typeof ApplyPatchCallOutput>;

/** openai 7.59 `ResponseComputerToolCall`'s action union. */
const xy = { x: z.number().int(), y: z.number().int() };
const keys = z.array(z.string()).nullish();
export const ComputerAction = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('click'), button: z.enum(['left', 'right', 'wheel', 'back', 'forward']), ...xy, keys }),
  // The SDK's double click has `keys` always present (null when none).
  z.strictObject({ type: z.literal('double_click'), ...xy, keys: z.array(z.string()).nullish().transform((v) => v ?? null) }),
  z.strictObject({ type: z.literal('drag'), path: z.array(z.strictObject(xy)).min(1), keys }),
  z.strictObject({ type: z.literal('keypress'), keys: z.array(z.string()).min(1) }),
  z.strictObject({ type: z.literal('move'), ...xy, keys }),
  z.strictObject({ type: z.literal('screenshot') }),
  z.strictObject({ type: z.literal('scroll'), ...xy, scroll_x: z.number().int(), scroll_y: z.number().int(), keys }),
  z.strictObject({ type: z.literal('type'), text: z.string() }),
  z.strictObject({ type: z.literal('wait') }),
]);
export type ComputerAction = z.infer<typeof ComputerAction>;

const SafetyCheck = z.object({ id: z.string(), code: z.string().nullish(), message: z.string().nullish() });

export const ComputerCall = z.object({
  type: z.literal('computer_call'),
  id: z.string(),
  call_id: z.string(),
  action: ComputerAction,
  /** No safety checks run here: always empty. */
  pending_safety_checks: z.array(SafetyCheck),
  status: ItemStatus,
});
export type ComputerCall = z.infer<typeof ComputerCall>;

export const ComputerScreenshot = z.object({ type: z.literal('computer_screenshot'), image_url: z.string().optional(), file_id: z.string().optional() });

export const ComputerCallOutput = z.object({
  type: z.literal('computer_call_output'),
  id: z.string(),
  call_id: z.string(),
  output: ComputerScreenshot,
  acknowledged_safety_checks: z.array(SafetyCheck).optional(),
  status: z.enum(['completed', 'incomplete', 'failed', 'in_progress']),
});
export type ComputerCallOutput = z.infer<typeof ComputerCallOutput>;

/** A call the model made for the client to run (a function call too). */
export type ClientCallItemType = 'function_call' | 'custom_tool_call' | 'shell_call' | 'local_shell_call' | 'apply_patch_call' | 'computer_call';
export const CLIENT_CALL_TYPES: ReadonlySet<string> = new Set<ClientCallItemType>(['function_call', 'custom_tool_call', 'shell_call', 'local_shell_call', 'apply_patch_call', 'computer_call']);
