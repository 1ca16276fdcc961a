/**
 * What a client may send back of the calls it runs (openai 7.59 `ResponseInputItem`'s
 * `CustomToolCall(Output)`, `ShellCall(Output)`, `LocalShellCall(Output)`,
 * `ApplyPatchCall(Output)`): the model's calls replayed as history, and their outputs.
 * The fields each SDK sends are accepted (the Agents SDK's `shellTool`/`applyPatchTool`, the
 * AI SDK's `openai.tools.*`, which sends `local_shell_call_output` with `call_id` where the
 * type has `id`); an unknown field is a 400 naming it, as elsewhere.
 */
import { z } from 'zod';
import { InputFilePart, InputImagePart, InputTextPart } from './input-parts';
import { ComputerAction, LocalShellAction } from './client-call-items';

const caller = z.union([z.strictObject({ type: z.literal('direct') }), z.strictObject({ type: z.literal('program'), caller_id: z.string() })]).nullish();
const status = z.enum(['in_progress', 'completed', 'incomplete']).nullish();
const itemId = z.string().nullish();

/** A tool's output as sent back: text, or text, image and file parts (as a function call output). */
export const ToolOutputInput = z.union([z.string(), z.array(z.discriminatedUnion('type', [InputTextPart, InputImagePart, InputFilePart]))]);

export const CustomToolCallInput = z.strictObject({
  type: z.literal('custom_tool_call'),
  id: itemId,
  call_id: z.string().min(1),
  name: z.string().min(1),
  input: z.string(),
  namespace: z.string().min(1).optional(),
  caller,
  status,
});

export const CustomToolCallOutputInput = z.strictObject({ type: z.literal('custom_tool_call_output'), id: itemId, call_id: z.string().min(1), output: ToolOutputInput, caller, status });

export const ShellCallInput = z.strictObject({
  type: z.literal('shell_call'),
  id: itemId,
  call_id: z.string().min(1),
  action: z.strictObject({ commands: z.array(z.string()), timeout_ms: z.number().int().nullish(), max_output_length: z.number().int().nullish() }),
  environment: z.union([z.looseObject({ type: z.literal('local') }), z.looseObject({ type: z.literal('container_reference') })]).nullish(),
  caller,
  status,
  created_by: z.string().optional(),
});

export const ShellCallOutputInput = z.strictObject({
  type: z.literal('shell_call_output'),
  id: itemId,
  call_id: z.string().min(1),
  output: z.array(
    z.strictObject({
      stdout: z.string(),
      stderr: z.string(),
      outcome: z.union([z.strictObject({ type: z.literal('exit'), exit_code: z.number().int() }), z.strictObject({ type: z.literal('timeout') })]),
      created_by: z.string().optional(),
    }),
  ),
  max_output_length: z.number().int().nullish(),
  caller,
  status,
  created_by: z.string().optional(),
});

export const LocalShellCallInput = z.strictObject({
  type: z.literal('local_shell_call'),
  id: itemId,
  call_id: z.string().min(1),
  action: z.strictObject(LocalShellAction.shape),
  status,
});

/** `id` (OpenAI's type: the call it answers) or `call_id` (what the AI SDK sends): one of them names the call. */
export const LocalShellCallOutputInput = z
  .strictObject({ type: z.literal('local_shell_call_output'), id: itemId, call_id: z.string().min(1).nullish(), output: z.string(), status })
  .refine((item) => item.call_id || item.id, { message: "Missing required parameter: 'call_id' (or 'id', the call it answers).", path: ['call_id'] });

const PatchOperationInput = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('create_file'), path: z.string().min(1), diff: z.string() }),
  z.strictObject({ type: z.literal('update_file'), path: z.string().min(1), diff: z.string(), move_to: z.string().nullish() }),
  z.strictObject({ type: z.literal('delete_file'), path: z.string().min(1) }),
]);

export const ApplyPatchCallInput = z.strictObject({
  type: z.literal('apply_patch_call'),
  id: itemId,
  call_id: z.string().min(1),
  operation: PatchOperationInput,
  status: z.enum(['in_progress', 'completed']),
  caller,
  created_by: z.string().optional(),
});

export const ApplyPatchCallOutputInput = z.strictObject({
  type: z.literal('apply_patch_call_output'),
  id: itemId,
  call_id: z.string().min(1),
  status: z.enum(['completed', 'failed']),
  output: z.string().nullish(),
  caller,
  created_by: z.string().optional(),
});

const SafetyCheckInput = z.strictObject({ id: z.string(), code: z.string().nullish(), message: z.string().nullish() });

/** openai 7.59 `ResponseComputerToolCall` replayed as history. */
export const ComputerCallInput = z.strictObject({
  type: z.literal('computer_call'),
  id: z.string().min(1),
  call_id: z.string().min(1),
  action: ComputerAction,
  pending_safety_checks: z.array(SafetyCheckInput),
  status: z.enum(['in_progress', 'completed', 'incomplete']),
});

/** `ResponseInputItem.ComputerCallOutput`: the screenshot after the action, by URL or uploaded file. */
export const ComputerCallOutputInput = z.strictObject({
  type: z.literal('computer_call_output'),
  id: itemId,
  call_id: z.string().min(1),
  output: z
    .strictObject({ type: z.literal('computer_screenshot'), image_url: z.string().min(1).optional(), file_id: z.string().min(1).optional() })
    .refine((shot) => shot.image_url || shot.file_id, { message: "Missing required parameter: the screenshot's 'image_url' or 'file_id'.", path: ['image_url'] }),
  acknowledged_safety_checks: z.array(SafetyCheckInput).nullish(),
  status,
});
