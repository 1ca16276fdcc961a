/**
 * Tool search on the wire (openai 7.59 `ToolSearchTool`, `ResponseToolSearchCall`,
 * `ResponseToolSearchOutputItem` and their input forms): tools marked `defer_loading` are
 * not shown to the model until a search loads them. The `tool_search` tool owns these
 * schemas and hands them to the request's parse as a plug-in does (`BuiltinTool.schemas`),
 * so the create schema itself is not edited for them.
 */
import { z } from 'zod';
import { CustomTool, NamespaceTool } from './client-tools';
import { FunctionTool, McpTool } from './create-request';
import { MAX_TOOLS } from './request-limits';

/** `{type: "tool_search"}`: run here (`execution: "server"`, the default), or by the client with its own description and parameters. */
export const ToolSearchTool = z.strictObject({
  type: z.literal('tool_search'),
  execution: z.enum(['server', 'client']).optional(),
  description: z.string().max(10_000).nullish(),
  parameters: z
    .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { message: 'Expected a JSON Schema object.' })
    .nullish(),
});
export type ToolSearchTool = z.infer<typeof ToolSearchTool>;

/**
 * A deferred MCP server's tools as a search lists what it loaded: the server's entry with
 * `allowed_tools` naming the loaded tools, never its secrets (`authorization`, `headers`:
 * strict, so a replayed item cannot bring them into storage either).
 */
export const LoadedMcpTool = McpTool.omit({ authorization: true, headers: true, connector_id: true, tunnel_id: true }).extend({ headers: z.null().optional() });
export type LoadedMcpTool = z.infer<typeof LoadedMcpTool>;

/**
 * A tool a search can load: a function, a custom tool, or a namespace of them — the tools
 * whose calls the client runs and which the model is shown as functions — or a deferred MCP
 * server's tools. (The SDK's type lists every tool type; other builtin tools are never
 * deferred here, so loading one is a 400.)
 */
export const LoadableTool = z.discriminatedUnion('type', [FunctionTool, CustomTool, NamespaceTool, LoadedMcpTool]);
export type LoadableTool = z.infer<typeof LoadableTool>;

const status = z.enum(['in_progress', 'completed', 'incomplete']);
const execution = z.enum(['server', 'client']);

/** The stored (and output) `tool_search_call`: what the model searched for. */
export const ToolSearchCall = z.object({
  type: z.literal('tool_search_call'),
  id: z.string(),
  call_id: z.string().nullable(),
  execution,
  status,
  arguments: z.unknown(),
  created_by: z.string().optional(),
});
export type ToolSearchCall = z.infer<typeof ToolSearchCall>;

/** The stored (and output) `tool_search_output`: the tools the search loaded. */
export const ToolSearchOutput = z.object({
  type: z.literal('tool_search_output'),
  id: z.string(),
  call_id: z.string().nullable(),
  execution,
  status,
  tools: z.array(LoadableTool),
  created_by: z.string().optional(),
});
export type ToolSearchOutput = z.infer<typeof ToolSearchOutput>;

/** `tool_search_call` as input: a replayed call (server or client). */
export const ToolSearchCallInput = z.strictObject({
  type: z.literal('tool_search_call'),
  id: z.string().min(1).max(256).nullish(),
  call_id: z.string().min(1).max(256).nullish(),
  execution: execution.optional(),
  status: status.nullish(),
  arguments: z.unknown(),
  created_by: z.string().max(256).optional(),
});

/** `tool_search_output` as input: a replayed server output, or the client's answer to its own search (`call_id`, `tools`). */
export const ToolSearchOutputInput = z.strictObject({
  type: z.literal('tool_search_output'),
  id: z.string().min(1).max(256).nullish(),
  call_id: z.string().min(1).max(256).nullish(),
  execution: execution.optional(),
  status: status.nullish(),
  tools: z.array(LoadableTool).max(MAX_TOOLS),
  created_by: z.string().max(256).optional(),
});
