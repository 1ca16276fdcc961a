/**
 * The Response object: OpenAI's shape, with every property the Open Responses
 * `ResponseResource` requires present (nullable ones as null).
 */
import { z } from 'zod';
import { OutputItem } from './output-items';
import { ProgrammaticToolCallingTool } from './program-items';
import { ApplyPatchTool, ComputerTool, ComputerUsePreviewTool, CustomTool, LocalShellTool, NamespaceTool, ShellTool } from './client-tools';
import { type BuiltinToolEntry, CodeInterpreterTool, FileSearchTool, FunctionTool, McpTool, ReasoningSummary, TextFormat, ToolChoice, WebSearchPreviewTool, WebSearchTool } from './create-request';

export const ResponseStatus = z.enum(['queued', 'in_progress', 'completed', 'failed', 'incomplete', 'cancelled']);
export type ResponseStatus = z.infer<typeof ResponseStatus>;

export const TERMINAL_STATUSES: ReadonlySet<ResponseStatus> = new Set(['completed', 'failed', 'incomplete', 'cancelled']);

export const Usage = z.object({
  input_tokens: z.number().int(),
  input_tokens_details: z.object({ cached_tokens: z.number().int(), cache_write_tokens: z.number().int() }),
  output_tokens: z.number().int(),
  output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
  total_tokens: z.number().int(),
});
export type Usage = z.infer<typeof Usage>;

/**
 * `code` is one of the SDK's ResponseError codes; the message says what to do. `type` and
 * `param` are the original error's, as OpenAI sends them: the AI SDK rejects a failed
 * response whose error has no `type` string. Optional only so that rows stored before they
 * existed still read.
 */
export const ResponseErrorInfo = z.object({
  code: z.enum(['server_error', 'rate_limit_exceeded', 'invalid_prompt']),
  message: z.string(),
  type: z.string().optional(),
  param: z.string().nullable().optional(),
});
export type ResponseErrorInfo = z.infer<typeof ResponseErrorInfo>;

/** An `mcp` tool as the response echoes it: `authorization` left out and `headers` null, as OpenAI redacts them. */
export const McpToolEcho = McpTool.omit({ authorization: true, headers: true, connector_id: true, tunnel_id: true, defer_loading: true }).extend({ headers: z.null() });
export type McpToolEcho = z.infer<typeof McpToolEcho>;

/** A `tools` entry other than a function, as a response shows it (the MCP tool without its secrets). */
export type EchoedToolEntry = Exclude<BuiltinToolEntry, { type: 'mcp' }> | McpToolEcho;

export const ResponseObject = z.object({
  id: z.string(),
  object: z.literal('response'),
  /** OpenAI's cyber access programs; none exist locally, always null. */
  access_programs: z.null(),
  created_at: z.number().int(),
  completed_at: z.number().int().nullable(),
  status: ResponseStatus,
  background: z.boolean(),
  error: ResponseErrorInfo.nullable(),
  incomplete_details: z.object({ reason: z.enum(['max_output_tokens', 'content_filter', 'steered']) }).nullable(),
  instructions: z.string().nullable(),
  max_output_tokens: z.number().int().nullable(),
  max_tool_calls: z.number().int().nullable(),
  model: z.string(),
  output: z.array(OutputItem),
  /** Convenience text the SDK also derives; kept for clients reading raw JSON. */
  output_text: z.string(),
  parallel_tool_calls: z.boolean(),
  previous_response_id: z.string().nullable(),
  /** The conversation this response reads and appends to (OpenAI's `{id}`); absent when none. */
  conversation: z.object({ id: z.string() }).nullish(),
  reasoning: z.object({ effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).nullable(), summary: ReasoningSummary.nullable() }).nullable(),
  /** The tier used: the local runtime has one, whatever was asked for. */
  service_tier: z.literal('default'),
  store: z.boolean(),
  temperature: z.number(),
  top_p: z.number(),
  presence_penalty: z.number(),
  frequency_penalty: z.number(),
  top_logprobs: z.number().int(),
  text: z.object({ format: TextFormat, verbosity: z.enum(['low', 'medium', 'high']) }),
  tool_choice: ToolChoice,
  tools: z.array(
    z.union([
      FunctionTool.extend({ description: z.string().nullable(), parameters: z.record(z.string(), z.unknown()).nullable(), strict: z.boolean() }),
      CodeInterpreterTool,
      WebSearchTool,
      WebSearchPreviewTool,
      McpToolEcho,
      FileSearchTool,
      CustomTool,
      NamespaceTool,
      ShellTool,
      LocalShellTool,
      ApplyPatchTool,
      ComputerTool,
      ComputerUsePreviewTool,
      ProgrammaticToolCallingTool,
    ]),
  ),
  truncation: z.enum(['auto', 'disabled']),
  usage: Usage.nullable(),
  user: z.string().optional(),
  metadata: z.record(z.string(), z.string()),
  safety_identifier: z.string().nullable(),
  prompt_cache_key: z.string().nullable(),
});
export type ResponseObject = z.infer<typeof ResponseObject>;
