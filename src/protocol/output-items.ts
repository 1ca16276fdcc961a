/**
 * Items as the server returns them: in `response.output`, in stream events and in
 * `input_items` listings. Every item has an id that is the same in all three places.
 */
import { z } from 'zod';
import { ApplyPatchCall, ApplyPatchCallOutput, ComputerCall, ComputerCallOutput, CustomToolCall, CustomToolCallOutput, LocalShellCall, LocalShellCallOutput, ShellCall, ShellCallOutput } from './client-call-items';
import { InputFile, InputImage, InputText } from './content-parts';
import { CONTEXT_ITEMS } from './context-items';
import { CallerSchema, ProgramItem, ProgramOutputItem } from './program-items';

export const ItemStatus = z.enum(['in_progress', 'completed', 'incomplete']);

export const UrlCitation = z.object({
  type: z.literal('url_citation'),
  url: z.string(),
  title: z.string(),
  start_index: z.number().int(),
  end_index: z.number().int(),
});

export type UrlCitation = z.infer<typeof UrlCitation>;

/** A source file of the answer (file search): `index` is where in the text the citation stands. */
export const FileCitation = z.object({
  type: z.literal('file_citation'),
  file_id: z.string(),
  filename: z.string(),
  index: z.number().int(),
});
export type FileCitation = z.infer<typeof FileCitation>;

export const Annotation = z.union([UrlCitation, FileCitation]);
export type Annotation = z.infer<typeof Annotation>;

/** A candidate token and its log probability (OpenAI's `Logprob.TopLogprob`). */
export const TopLogprob = z.object({ token: z.string(), logprob: z.number(), bytes: z.array(z.number().int().min(0).max(255)) });
/** A sampled token of output text, its log probability and the most likely alternatives (OpenAI's `Logprob`). */
export const Logprob = TopLogprob.extend({ top_logprobs: z.array(TopLogprob) });
export type Logprob = z.infer<typeof Logprob>;

export const OutputText = z.object({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(Annotation),
  /** Only with `include: ["message.output_text.logprobs"]`: the tokens of `text`, in order. */
  logprobs: z.array(Logprob).optional(),
});
export type OutputText = z.infer<typeof OutputText>;

export const Refusal = z.object({ type: z.literal('refusal'), refusal: z.string() });
export { InputText, InputImage, InputFile };
export const ReasoningText = z.object({ type: z.literal('reasoning_text'), text: z.string() });
export type ReasoningText = z.infer<typeof ReasoningText>;

/** An assistant message the model produced. */
export const OutputMessage = z.object({
  type: z.literal('message'),
  id: z.string(),
  role: z.literal('assistant'),
  status: ItemStatus,
  content: z.array(z.union([OutputText, Refusal])),
  /** An assistant message's phase as the client sent it (`commentary`, `final_answer`), kept and returned unchanged. */
  phase: z.enum(['commentary', 'final_answer']).nullish(),
});
export type OutputMessage = z.infer<typeof OutputMessage>;

/** A message the client sent (listed by `input_items`). */
export const StoredInputMessage = z.object({
  type: z.literal('message'),
  id: z.string(),
  role: z.enum(['user', 'system', 'developer']),
  status: ItemStatus,
  content: z.array(z.union([InputText, InputImage, InputFile])),
});
export type StoredInputMessage = z.infer<typeof StoredInputMessage>;

export const FunctionCall = z.object({
  type: z.literal('function_call'),
  id: z.string(),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  /** The namespace of a namespaced function (`tools: [{type: "namespace", …}]`). */
  namespace: z.string().optional(),
  /** Set when a program made the call (programmatic tool calling); the model made it otherwise. */
  caller: CallerSchema.optional(),
  status: ItemStatus,
});
export type FunctionCall = z.infer<typeof FunctionCall>;

export const FunctionCallOutput = z.object({
  type: z.literal('function_call_output'),
  id: z.string(),
  call_id: z.string(),
  output: z.union([z.string(), z.array(z.union([InputText, InputImage, InputFile]))]),
  /** The namespace of the function it answers, when the client said. */
  namespace: z.string().optional(),
  /** As the client sent it, for a call a program made. */
  caller: CallerSchema.optional(),
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

/** One passage a file search found (`results`, only with `include: ["file_search_call.results"]`). */
export const FileSearchResult = z.object({
  file_id: z.string(),
  filename: z.string(),
  score: z.number(),
  text: z.string(),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable(),
});
export type FileSearchResult = z.infer<typeof FileSearchResult>;

export const FileSearchCall = z.object({
  type: z.literal('file_search_call'),
  id: z.string(),
  queries: z.array(z.string()),
  status: z.enum(['in_progress', 'searching', 'completed', 'incomplete', 'failed']),
  /** Kept in storage; shown only when the request asked `include: ["file_search_call.results"]`. */
  results: z.array(FileSearchResult).nullable(),
});
export type FileSearchCall = z.infer<typeof FileSearchCall>;

/** The tools an MCP server offered (after `allowed_tools`), or why they could not be listed. */
export const McpListTools = z.object({
  type: z.literal('mcp_list_tools'),
  id: z.string(),
  server_label: z.string(),
  tools: z.array(
    z.object({ name: z.string(), description: z.string().nullish(), input_schema: z.unknown(), annotations: z.unknown().nullish() }),
  ),
  error: z.string().nullish(),
});
export type McpListTools = z.infer<typeof McpListTools>;

/** OpenAI's `McpToolCallError`; `http_error` with code 0 means no HTTP answer at all (network, CORS, URL policy). */
export const McpToolCallError = z.union([
  z.object({ type: z.literal('http_error'), code: z.number().int(), message: z.string() }),
  z.object({ type: z.literal('mcp_protocol_error'), code: z.number().int(), message: z.string() }),
  z.object({ type: z.literal('mcp_tool_execution_error'), content: z.unknown() }),
]);
export type McpToolCallError = z.infer<typeof McpToolCallError>;

export const McpCall = z.object({
  type: z.literal('mcp_call'),
  id: z.string(),
  server_label: z.string(),
  name: z.string(),
  arguments: z.string(),
  status: z.enum(['in_progress', 'completed', 'incomplete', 'calling', 'failed']),
  /** What the tool returned, as text (untrusted; cut to the runtime's limit). */
  output: z.string().nullable(),
  error: McpToolCallError.nullable(),
  approval_request_id: z.string().nullable(),
});
export type McpCall = z.infer<typeof McpCall>;

/** A call the model wants to make that needs the user's approval first; the response ends with it. */
export const McpApprovalRequest = z.object({
  type: z.literal('mcp_approval_request'),
  id: z.string(),
  server_label: z.string(),
  name: z.string(),
  arguments: z.string(),
});
export type McpApprovalRequest = z.infer<typeof McpApprovalRequest>;

/** The client's answer to an approval request, as stored and listed in `input_items`. */
export const McpApprovalResponse = z.object({
  type: z.literal('mcp_approval_response'),
  id: z.string(),
  approval_request_id: z.string(),
  approve: z.boolean(),
  reason: z.string().nullable(),
});
export type McpApprovalResponse = z.infer<typeof McpApprovalResponse>;

/**
 * A compaction item (`POST /v1/responses/compact`, or `context_management` on create): the
 * model's summary of the earlier conversation, sealed so only this origin can open it
 * (server/sealing/compaction-sealer.ts). Stored sealed too: every place that lists it shows it as is.
 */
export const Compaction = z.object({
  type: z.literal('compaction'),
  id: z.string(),
  encrypted_content: z.string(),
  created_by: z.string().optional(),
});
export type Compaction = z.infer<typeof Compaction>;

/** What the model emits into `response.output`. */
export const OutputItem = z.discriminatedUnion('type', [
  OutputMessage,
  FunctionCall,
  Reasoning,
  CodeInterpreterCall,
  WebSearchCall,
  FileSearchCall,
  McpListTools,
  McpCall,
  McpApprovalRequest,
  Compaction,
  CustomToolCall,
  ShellCall,
  LocalShellCall,
  ApplyPatchCall,
  ComputerCall,
  ProgramItem,
  ProgramOutputItem,
]);
export type OutputItem = z.infer<typeof OutputItem>;

/** Any stored conversation item: inputs the client sent, or outputs replayed as input. */
export const StoredItem = z.union([
  OutputMessage,
  StoredInputMessage,
  FunctionCall,
  FunctionCallOutput,
  Reasoning,
  CodeInterpreterCall,
  WebSearchCall,
  FileSearchCall,
  McpListTools,
  McpCall,
  McpApprovalRequest,
  McpApprovalResponse,
  Compaction,
  CustomToolCall,
  CustomToolCallOutput,
  ShellCall,
  ShellCallOutput,
  LocalShellCall,
  LocalShellCallOutput,
  ApplyPatchCall,
  ApplyPatchCallOutput,
  ComputerCall,
  ComputerCallOutput,
  ...CONTEXT_ITEMS,
  ProgramItem,
  ProgramOutputItem,
]);
export type StoredItem = z.infer<typeof StoredItem>;
