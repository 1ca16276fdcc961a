/**
 * Zod schemas for what a client may send as `input` (and what `item_reference` resolves to).
 * Objects are strict: an unknown field is a 400 naming it, never silently dropped.
 */
import { z, type ZodType } from 'zod';
import {
  ApplyPatchCallInput,
  ApplyPatchCallOutputInput,
  ComputerCallInput,
  ComputerCallOutputInput,
  CustomToolCallInput,
  CustomToolCallOutputInput,
  LocalShellCallInput,
  LocalShellCallOutputInput,
  ShellCallInput,
  ShellCallOutputInput,
  ToolOutputInput,
} from './client-call-inputs';
import { InputFilePart, InputImagePart, InputTextPart } from './input-parts';
import { TOOL_INPUT_ITEMS } from './tool-input-items';
import { CONTEXT_INPUT_ITEMS } from './context-items';
import { CallerSchema } from './program-items';

const itemStatus = z.enum(['in_progress', 'completed', 'incomplete']).nullish();

export { InputFilePart, InputImagePart, InputTextPart };
const Annotation = z.record(z.string(), z.unknown());
export const OutputTextPart = z.strictObject({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(Annotation).default([]),
  logprobs: z.array(z.unknown()).optional(),
});
export const RefusalPart = z.strictObject({ type: z.literal('refusal'), refusal: z.string() });

const MessageContentPart = z.discriminatedUnion('type', [InputTextPart, InputImagePart, InputFilePart, OutputTextPart, RefusalPart]);

export const InputMessage = z.strictObject({
  type: z.literal('message').default('message'),
  id: z.string().nullish(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(MessageContentPart)]),
  status: itemStatus,
  phase: z.enum(['commentary', 'final_answer']).nullish(),
});

export const FunctionCallItem = z.strictObject({
  type: z.literal('function_call'),
  id: z.string().nullish(),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
  /** The namespace of a namespaced function (the call came from a `namespace` tool). */
  namespace: z.string().min(1).optional(),
  caller: CallerSchema.nullish(),
  status: itemStatus,
});

export const FunctionCallOutputItem = z.strictObject({
  type: z.literal('function_call_output'),
  id: z.string().nullish(),
  call_id: z.string().min(1),
  output: ToolOutputInput,
  /** As the Agents SDK echoes them for namespaced functions. */
  name: z.string().optional(),
  namespace: z.string().min(1).optional(),
  caller: CallerSchema.nullish(),
  status: itemStatus,
});

const ReasoningText = z.strictObject({ type: z.literal('reasoning_text'), text: z.string() });
const SummaryText = z.strictObject({ type: z.literal('summary_text'), text: z.string() });
export const ReasoningItem = z.strictObject({
  type: z.literal('reasoning'),
  id: z.string().nullish(),
  summary: z.array(SummaryText).default([]),
  content: z.array(ReasoningText).nullish(),
  encrypted_content: z.string().nullish(),
  status: itemStatus,
});

/**
 * A compaction item this origin made, passed back (OpenAI's `ResponseCompactionItemParam`;
 * `created_by` too, as output items carry it). Its content is opened, and checked, when the
 * request is read.
 */
export const CompactionItem = z.strictObject({
  type: z.literal('compaction'),
  id: z.string().nullish(),
  encrypted_content: z.string().min(1).max(10_485_760),
  created_by: z.string().nullish(),
});

export const ItemReference = z.strictObject({
  type: z.literal('item_reference'),
  id: z.string().min(1),
});

const CORE_INPUT_ITEMS = [
    InputMessage,
    FunctionCallItem,
    FunctionCallOutputItem,
    ReasoningItem,
    CompactionItem,
    ItemReference,
    CustomToolCallInput,
    CustomToolCallOutputInput,
    ShellCallInput,
    ShellCallOutputInput,
    LocalShellCallInput,
    LocalShellCallOutputInput,
    ApplyPatchCallInput,
    ApplyPatchCallOutputInput,
    ComputerCallInput,
    ComputerCallOutputInput,
    ...TOOL_INPUT_ITEMS,
    ...CONTEXT_INPUT_ITEMS,
] as const;

/**
 * The input item schema, with the items plug-in tools add (`protocol-extensions.ts`). A
 * message may omit `type` (OpenAI's EasyInputMessage); everything else is keyed by `type`.
 */
export function inputItemSchema(extra: readonly ZodType[] = []) {
  const options = [...CORE_INPUT_ITEMS, ...extra] as unknown as typeof CORE_INPUT_ITEMS;
  return z.preprocess((v) => (isPlainObject(v) && v.type === undefined && 'role' in v ? { ...v, type: 'message' } : v), z.discriminatedUnion('type', options));
}

export const InputItem = inputItemSchema();

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export type InputItem = z.infer<typeof InputItem>;
export type InputMessage = z.infer<typeof InputMessage>;
