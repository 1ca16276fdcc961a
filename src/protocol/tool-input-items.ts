/**
 * The builtin tools' items as input: every item the server returns can be sent back (a
 * client that keeps its own history replays `response.output`), as OpenAI accepts them.
 * Strict, like every input item: an unknown field is a 400 naming it. The owning tool reads
 * them back into stored items (`BuiltinTool.accept`); none is ever run again.
 */
import { z } from 'zod';
import { McpToolCallError, WebSearchAction } from './output-items';

const id = z.string().min(1).max(256);
const text = z.string().max(10_485_760);

export const CodeInterpreterCallInput = z.strictObject({
  type: z.literal('code_interpreter_call'),
  id,
  status: z.enum(['in_progress', 'completed', 'incomplete', 'interpreting', 'failed']),
  code: text.nullable(),
  container_id: z.string().min(1).max(256),
  outputs: z.array(z.union([z.strictObject({ type: z.literal('logs'), logs: text }), z.strictObject({ type: z.literal('image'), url: text })])).max(1000).nullish(),
});

export const WebSearchCallInput = z.strictObject({
  type: z.literal('web_search_call'),
  id,
  status: z.enum(['in_progress', 'searching', 'completed', 'failed', 'incomplete']),
  action: WebSearchAction,
});

/** A `file_search_call` of an earlier response, passed back. */
export const FileSearchCallInput = z.strictObject({
  type: z.literal('file_search_call'),
  id,
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

export const McpListToolsInput = z.strictObject({
  type: z.literal('mcp_list_tools'),
  id,
  server_label: z.string().min(1),
  tools: z
    .array(z.strictObject({ name: z.string(), description: z.string().nullish(), input_schema: z.unknown(), annotations: z.unknown().nullish() }))
    .max(1000),
  error: z.string().nullish(),
});

export const McpCallInput = z.strictObject({
  type: z.literal('mcp_call'),
  id,
  server_label: z.string().min(1),
  name: z.string().min(1),
  arguments: text,
  status: z.enum(['in_progress', 'completed', 'incomplete', 'calling', 'failed']).nullish(),
  output: text.nullish(),
  error: McpToolCallError.nullish(),
  approval_request_id: z.string().nullish(),
});

export const McpApprovalRequestInput = z.strictObject({
  type: z.literal('mcp_approval_request'),
  id,
  server_label: z.string().min(1),
  name: z.string().min(1),
  arguments: text,
});

/** The user's answer to an `mcp_approval_request` of the previous response. */
export const McpApprovalResponseInput = z.strictObject({
  type: z.literal('mcp_approval_response'),
  id: z.string().nullish(),
  approval_request_id: z.string().min(1),
  approve: z.boolean(),
  reason: z.string().nullish(),
});

export const TOOL_INPUT_ITEMS = [CodeInterpreterCallInput, WebSearchCallInput, FileSearchCallInput, McpListToolsInput, McpCallInput, McpApprovalRequestInput, McpApprovalResponseInput] as const;
export type ToolInputItem = z.infer<(typeof TOOL_INPUT_ITEMS)[number]>;
