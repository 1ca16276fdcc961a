/**
 * Zod schemas for what a client may send as `input` (and what `item_reference` resolves to).
 * Objects are strict: an unknown field is a 400 naming it, never silently dropped.
 */
import { z } from 'zod';

const itemStatus = z.enum(['in_progress', 'completed', 'incomplete']).nullish();

export const InputTextPart = z.strictObject({ type: z.literal('input_text'), text: z.string() });
export const InputImagePart = z.strictObject({
  type: z.literal('input_image'),
  image_url: z.string().nullish(),
  file_id: z.string().nullish(),
  detail: z.enum(['low', 'high', 'auto', 'original']).default('auto'),
});
/**
 * A file in a message: an uploaded one (`file_id`) or its bytes inline (`file_data`, a data URL
 * or base64, with its `filename`). Its text is what the model is shown. `file_url` is refused
 * (the runtime fetches nothing a request names).
 */
export const InputFilePart = z.strictObject({
  type: z.literal('input_file'),
  file_id: z.string().min(1).nullish(),
  file_data: z.string().min(1).optional(),
  file_url: z.string().optional(),
  filename: z.string().min(1).max(255).optional(),
  detail: z.enum(['auto', 'low', 'high']).optional(),
  prompt_cache_breakpoint: z.unknown().optional(),
});
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
  status: itemStatus,
});

export const FunctionCallOutputItem = z.strictObject({
  type: z.literal('function_call_output'),
  id: z.string().nullish(),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(z.discriminatedUnion('type', [InputTextPart, InputImagePart]))]),
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

/** The user's answer to an `mcp_approval_request` of the previous response. */
export const McpApprovalResponseItem = z.strictObject({
  type: z.literal('mcp_approval_response'),
  id: z.string().nullish(),
  approval_request_id: z.string().min(1),
  approve: z.boolean(),
  reason: z.string().nullish(),
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

/** A `file_search_call` of an earlier response, passed back (OpenAI's input items include it). */
export const FileSearchCallItem = z.strictObject({
  type: z.literal('file_search_call'),
  id: z.string().min(1),
  queries: z.array(z.string()).max(100),
  status: z.enum(['in_progress', 'searching', 'completed', 'incomplete', 'failed']),
  results: z
    .array(
      z.strictObject({
        file_id: z.string().optional(),
        filename: z.string().optional(),
        score: z.number().optional(),
        text: z.string().optional(),
        attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullish(),
      }),
    )
    .nullish(),
});

export const ItemReference = z.strictObject({
  type: z.literal('item_reference'),
  id: z.string().min(1),
});

/** A message may omit `type` (OpenAI's EasyInputMessage); everything else is keyed by `type`. */
export const InputItem = z.preprocess(
  (v) => (isPlainObject(v) && v.type === undefined && 'role' in v ? { ...v, type: 'message' } : v),
  z.discriminatedUnion('type', [InputMessage, FunctionCallItem, FunctionCallOutputItem, ReasoningItem, McpApprovalResponseItem, CompactionItem, FileSearchCallItem, ItemReference]),
);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export type InputItem = z.infer<typeof InputItem>;
export type InputMessage = z.infer<typeof InputMessage>;
