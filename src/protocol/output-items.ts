/**
 * Items as the server returns them: in `response.output`, in stream events and in
 * `input_items` listings. Every item has an id that is the same in all three places.
 */
import { z } from 'zod';

export const ItemStatus = z.enum(['in_progress', 'completed', 'incomplete']);

export const UrlCitation = z.object({
  type: z.literal('url_citation'),
  url: z.string(),
  title: z.string(),
  start_index: z.number().int(),
  end_index: z.number().int(),
});

export type UrlCitation = z.infer<typeof UrlCitation>;

export const OutputText = z.object({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(UrlCitation),
  logprobs: z.array(z.never()).optional(),
});
export type OutputText = z.infer<typeof OutputText>;

export const Refusal = z.object({ type: z.literal('refusal'), refusal: z.string() });
export const InputText = z.object({ type: z.literal('input_text'), text: z.string() });
export const InputImage = z.object({
  type: z.literal('input_image'),
  image_url: z.string().nullable(),
  file_id: z.string().nullable(),
  detail: z.enum(['low', 'high', 'auto', 'original']),
});
export const ReasoningText = z.object({ type: z.literal('reasoning_text'), text: z.string() });
export type ReasoningText = z.infer<typeof ReasoningText>;

/** An assistant message the model produced. */
export const OutputMessage = z.object({
  type: z.literal('message'),
  id: z.string(),
  role: z.literal('assistant'),
  status: ItemStatus,
  content: z.array(z.union([OutputText, Refusal])),
});
export type OutputMessage = z.infer<typeof OutputMessage>;

/** A message the client sent (listed by `input_items`). */
export const StoredInputMessage = z.object({
  type: z.literal('message'),
  id: z.string(),
  role: z.enum(['user', 'system', 'developer']),
  status: ItemStatus,
  content: z.array(z.union([InputText, InputImage])),
});
export type StoredInputMessage = z.infer<typeof StoredInputMessage>;

export const FunctionCall = z.object({
  type: z.literal('function_call'),
  id: z.string(),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  status: ItemStatus,
});
export type FunctionCall = z.infer<typeof FunctionCall>;

export const FunctionCallOutput = z.object({
  type: z.literal('function_call_output'),
  id: z.string(),
  call_id: z.string(),
  output: z.union([z.string(), z.array(z.union([InputText, InputImage]))]),
  status: ItemStatus,
});
export type FunctionCallOutput = z.infer<typeof FunctionCallOutput>;

export const Reasoning = z.object({
  type: z.literal('reasoning'),
  id: z.string(),
  summary: z.array(z.object({ type: z.literal('summary_text'), text: z.string() })),
  content: z.array(ReasoningText),
  /** Only in answers to `include: ["reasoning.encrypted_content"]`; never stored. */
  encrypted_content: z.string().optional(),
  status: ItemStatus.optional(),
});
export type Reasoning = z.infer<typeof Reasoning>;

export const CodeInterpreterCall = z.object({
  type: z.literal('code_interpreter_call'),
  id: z.string(),
  status: z.enum(['in_progress', 'completed', 'incomplete', 'interpreting', 'failed']),
  code: z.string().nullable(),
  container_id: z.string(),
  /** Filled only when the request asks `include: ["code_interpreter_call.outputs"]`. */
  outputs: z.array(z.union([z.object({ type: z.literal('logs'), logs: z.string() }), z.object({ type: z.literal('image'), url: z.string() })])).nullable(),
});
export type CodeInterpreterCall = z.infer<typeof CodeInterpreterCall>;

export const WebSearchAction = z.union([
  z.object({ type: z.literal('search'), query: z.string(), sources: z.array(z.object({ type: z.literal('url'), url: z.string() })).optional() }),
  z.object({ type: z.literal('open_page'), url: z.string().nullable() }),
  z.object({ type: z.literal('find_in_page'), url: z.string(), pattern: z.string() }),
]);
export type WebSearchAction = z.infer<typeof WebSearchAction>;

export const WebSearchCall = z.object({
  type: z.literal('web_search_call'),
  id: z.string(),
  status: z.enum(['in_progress', 'searching', 'completed', 'failed', 'incomplete']),
  action: WebSearchAction,
});
export type WebSearchCall = z.infer<typeof WebSearchCall>;

/** What the model emits into `response.output`. */
export const OutputItem = z.discriminatedUnion('type', [OutputMessage, FunctionCall, Reasoning, CodeInterpreterCall, WebSearchCall]);
export type OutputItem = z.infer<typeof OutputItem>;

/** Any stored conversation item: inputs the client sent, or outputs replayed as input. */
export const StoredItem = z.union([OutputMessage, StoredInputMessage, FunctionCall, FunctionCallOutput, Reasoning, CodeInterpreterCall, WebSearchCall]);
export type StoredItem = z.infer<typeof StoredItem>;
