/**
 * The `POST /v1/responses` body: every field of the SDK's `ResponseCreateParams`.
 * Fields we honour are validated like OpenAI does; fields we do not support are accepted
 * only when absent/null and otherwise rejected with a 400 that names them.
 */
import { z } from 'zod';
import { invalidRequest } from '../shared/api-error';
import { Codes } from '../shared/error-codes';
import { InputItem } from './input-item-schemas';
import { BackgroundOptions } from './background-options';
import { AllowedClientTool, ApplyPatchTool, ComputerTool, ComputerUsePreviewTool, ClientToolChoice, CustomTool, LocalShellTool, NamespaceTool, ShellTool } from './client-tools';
import { MAX_TOOLS, nestingError } from './request-limits';
import { AttributeFilter, HybridSearch } from './vector-stores';
import { Metadata } from './metadata';
import { validationError } from './validation-error';
import { NO_EXTENSIONS, type ProtocolExtensions } from './protocol-extensions';
import { inputItemSchema } from './input-item-schemas';
import { TextFormat } from './text-format';
import { checkContextItems } from './context-items';
import { AllowedCallers, ProgrammaticToolCallingTool, ProgramToolChoice } from './program-items';

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A JSON object kept exactly as sent. `z.record` would rebuild it, and an own `__proto__`
 * key (which JSON.parse makes) is skipped unchecked and lost on the way: data silently dropped.
 */
function jsonObject() {
  return z.custom<Record<string, unknown>>().superRefine((value, ctx) => {
    if (!isJsonObject(value)) ctx.addIssue({ code: 'invalid_type', expected: 'object', input: value });
  });
}

/** A field the local runtime does not implement: absent or null only. */
function unsupported(why: string) {
  return z.unknown().refine((v) => v === undefined || v === null, { message: `UNSUPPORTED:${why}` }).optional();
}

export const FunctionTool = z.strictObject({
  type: z.literal('function'),
  name: z
    .string()
    .regex(/^[a-zA-Z0-9_-]{1,64}$/, { message: 'Function names must match ^[a-zA-Z0-9_-]{1,64}$.' }),
  description: z.string().nullish(),
  parameters: jsonObject().nullish(),
  strict: z.boolean().nullish(),
  defer_loading: z.boolean().optional(),
  /** `["programmatic"]`: callable from a program only (not shown to the model); with `"direct"`: both. */
  allowed_callers: AllowedCallers,
});
export type FunctionTool = z.infer<typeof FunctionTool>;

/** Python in a sandboxed pyodide worker; `container` names a kept Python state, or `auto`. */
export const CodeInterpreterTool = z.strictObject({
  type: z.literal('code_interpreter'),
  container: z.union([
    z.string().min(1),
    z.strictObject({ type: z.literal('auto'), file_ids: z.array(z.string()).max(0, { message: 'File uploads are not supported by the local runtime.' }).optional(), memory_limit: unsupported('A browser cannot limit a Python worker’s memory; see the code interpreter’s limits in docs/tools.md.') }),
  ]),
  /** `"programmatic"`: a program may run Python (`tools.python({code})`); without `"direct"` the model may not. */
  allowed_callers: AllowedCallers,
});
export type CodeInterpreterTool = z.infer<typeof CodeInterpreterTool>;

const location = {
  city: z.string().nullish(),
  country: z.string().nullish(),
  region: z.string().nullish(),
  timezone: z.string().nullish(),
};

/** Search, open and find-in-page over `fetch`, against a configurable search provider. */
export const WebSearchTool = z.strictObject({
  type: z.enum(['web_search', 'web_search_2025_08_26']),
  search_context_size: z.enum(['low', 'medium', 'high']).optional(),
  user_location: z.strictObject({ type: z.literal('approximate').optional(), ...location }).nullish(),
  filters: z.strictObject({ allowed_domains: z.array(z.string()).nullish() }).nullish(),
  external_web_access: z.boolean().optional(),
});
export type WebSearchTool = z.infer<typeof WebSearchTool>;

/** The older name of the same tool; OpenAI still accepts it. */
export const WebSearchPreviewTool = z.strictObject({
  type: z.enum(['web_search_preview', 'web_search_preview_2025_03_11']),
  search_context_size: z.enum(['low', 'medium', 'high']).optional(),
  user_location: z.strictObject({ type: z.literal('approximate'), ...location }).nullish(),
  search_content_types: z.array(z.enum(['text'])).optional(),
});

/** Which of a server's tools a filter picks: by name, and/or by the server's `readOnlyHint`. */
export const McpToolFilter = z.strictObject({ tool_names: z.array(z.string()).optional(), read_only: z.boolean().optional() });
export type McpToolFilter = z.infer<typeof McpToolFilter>;

/**
 * A remote MCP server (Streamable HTTP, or the older SSE transport) the runtime calls for the
 * model. `authorization` and `headers` are used for the calls of this request only: never
 * stored, never echoed (see `McpToolEcho`).
 */
export const McpTool = z.strictObject({
  type: z.literal('mcp'),
  server_label: z
    .string()
    .regex(/^[a-zA-Z][a-zA-Z0-9_-]{0,47}$/, { message: 'Server labels must start with a letter and match ^[a-zA-Z][a-zA-Z0-9_-]{0,47}$.' }),
  server_url: z.string().min(1),
  server_description: z.string().optional(),
  headers: z.record(z.string(), z.string()).nullish(),
  authorization: z.string().optional(),
  allowed_tools: z.union([z.array(z.string()), McpToolFilter]).nullish(),
  require_approval: z.union([z.enum(['always', 'never']), z.strictObject({ always: McpToolFilter.optional(), never: McpToolFilter.optional() })]).nullish(),
  allowed_callers: z.array(z.literal('direct')).nullish(),
  connector_id: unsupported('Service connectors are not available in the local runtime; give the server_url of an MCP server.'),
  tunnel_id: unsupported('Secure MCP tunnels are not available in the local runtime; give the server_url of an MCP server.'),
  /** The server's tools are not shown to the model until `tool_search` loads them (tools/tool-search). */
  defer_loading: z.boolean().optional(),
});
export type McpTool = z.infer<typeof McpTool>;

/** Search over the runtime's vector stores (`/v1/vector_stores`), by keyword and, where a store was embedded, by meaning. */
export const FileSearchTool = z.strictObject({
  type: z.literal('file_search'),
  vector_store_ids: z.array(z.string().min(1)).min(1).max(16),
  max_num_results: z.number().int().min(1).max(50).optional(),
  filters: AttributeFilter.nullish(),
  ranking_options: z
    .strictObject({
      ranker: z.enum(['auto', 'default-2024-11-15']).optional(),
      score_threshold: z.number().min(0).max(1).optional(),
      hybrid_search: HybridSearch.optional(),
    })
    .optional(),
});
export type FileSearchTool = z.infer<typeof FileSearchTool>;

/**
 * `image_generation`: parsed so that the 400 can say why it is refused — no model here makes
 * images, and no provider wing passes an image tool to an upstream that does. Typed `never`
 * (no accepted request has one), as the hosted shell container is.
 */
const ImageGenerationTool = z.looseObject({ type: z.literal('image_generation') }).superRefine((_tool, ctx) => {
  ctx.addIssue({
    code: 'custom',
    path: ['type'],
    message:
      'UNSUPPORTED:The image_generation tool is not available in the local runtime: none of its models generates images, and serving it would take a provider whose upstream generates them. Generate images with a separate image API and pass them in as input_image parts.',
  });
}) as unknown as z.ZodObject<{ type: z.ZodLiteral<never> }>;

const TOOL_OPTIONS = [FunctionTool, CodeInterpreterTool, WebSearchTool, WebSearchPreviewTool, McpTool, FileSearchTool, CustomTool, NamespaceTool, ShellTool, LocalShellTool, ApplyPatchTool, ComputerTool, ComputerUsePreviewTool, ProgrammaticToolCallingTool, ImageGenerationTool] as const;

/** Tool types are keyed by `type`; a type we do not run is a 400 naming `tools[i].type`. */
export const Tool = z.discriminatedUnion('type', TOOL_OPTIONS);
export type Tool = z.infer<typeof Tool>;

/** A `tools` entry other than a function (how a response echoes those: `EchoedToolEntry`). */
export type BuiltinToolEntry = Exclude<Tool, { type: 'function' }>;

/** The tools whose calls the client runs (functions and the SDK's client-run shapes); every other type is a builtin tool's. */
export const CLIENT_TOOL_TYPES: ReadonlySet<string> = new Set(['function', 'custom', 'namespace', 'shell', 'local_shell', 'apply_patch', 'computer', 'computer_use_preview']);

/** One entry of `allowed_tools.tools`: a function by name, or a builtin tool by type. */
export const AllowedTool = z.union([
  z.strictObject({ type: z.literal('function'), name: z.string().min(1), namespace: z.string().min(1).optional() }),
  AllowedClientTool,
  z.strictObject({ type: z.enum(['code_interpreter', 'web_search', 'web_search_2025_08_26', 'web_search_preview', 'web_search_preview_2025_03_11', 'file_search']) }),
]);
export type AllowedTool = z.infer<typeof AllowedTool>;

export const ToolChoice = z.union([
  z.enum(['auto', 'none', 'required']),
  z.strictObject({ type: z.literal('function'), name: z.string().min(1) }),
  ClientToolChoice,
  ProgramToolChoice,
  /** Only these of `tools` may be used this turn (the full list stays, for the prompt cache); `required` asks for a call. */
  z.strictObject({ type: z.literal('allowed_tools'), mode: z.enum(['auto', 'required']), tools: z.array(AllowedTool) }),
]);
export type ToolChoice = z.infer<typeof ToolChoice>;

export { TextFormat } from './text-format';

export { Metadata } from './metadata';

export const ReasoningSummary = z.enum(['auto', 'concise', 'detailed']);
export type ReasoningSummary = z.infer<typeof ReasoningSummary>;

const ReasoningConfig = z.strictObject({
  effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).nullish(),
  summary: ReasoningSummary.nullish(),
  /** The deprecated name of `summary`. */
  generate_summary: ReasoningSummary.nullish(),
});

/** Every `service_tier` the SDK knows; the local runtime has one tier and reports `default`. */
export const ServiceTier = z.enum(['auto', 'default', 'flex', 'scale', 'priority', 'fast', 'ultrafast']);

/** A context-management entry; compaction is the one kind OpenAI has. No threshold: compact when the prompt would not fit the model's context window. */
export const ContextManagementEntry = z.strictObject({
  type: z.literal('compaction'),
  compact_threshold: z.number().int().min(1).nullish(),
});

export const CreateResponseRequest = z.strictObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(InputItem)]).optional(),
  instructions: z.string().nullish(),
  previous_response_id: z.string().min(1).nullish(),
  background: z.boolean().nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.strictObject({ include_obfuscation: z.boolean().optional() }).nullish(),
  store: z.boolean().nullish(),
  max_output_tokens: z.number().int().min(16).nullish(),
  max_tool_calls: z.number().int().min(1).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  metadata: Metadata.nullish(),
  tools: z.array(Tool).max(MAX_TOOLS).optional(),
  tool_choice: ToolChoice.optional(),
  parallel_tool_calls: z.boolean().nullish(),
  text: z
    .strictObject({
      format: TextFormat.optional(),
      verbosity: z.enum(['low', 'medium', 'high']).nullish(),
    })
    .optional(),
  reasoning: ReasoningConfig.nullish(),
  truncation: z.enum(['auto', 'disabled']).nullish(),
  include: z
    .array(
      z.enum([
        'code_interpreter_call.outputs',
        'reasoning.encrypted_content',
        'message.output_text.logprobs',
        'file_search_call.results',
        // Owned by the web_search tool (its `includes` hook): `action.sources` shown only when asked for;
        // `results` names no field of the SDK's web_search_call, so it is accepted and changes nothing.
        'web_search_call.results',
        'web_search_call.action.sources',
      ]),
    )
    .nullish(),
  service_tier: ServiceTier.nullish(),
  user: z.string().max(512).optional(),
  /** Accepted as OpenAI does; the engine keeps its KV cache for the next turn whatever they say. */
  prompt_cache_options: z
    .strictObject({
      comparison_response_id: z.string().nullish(),
      mode: z.enum(['implicit', 'explicit']).optional(),
      prewarm: z.boolean().optional(),
      ttl: z.enum(['30m', '12h']).optional(),
    })
    .nullish(),
  safety_identifier: z.string().max(64).nullish(),
  prompt_cache_key: z.string().max(1024).nullish(),
  prompt_cache_retention: z.enum(['in_memory', '24h']).nullish(),
  /** Alternatives reported per output token (OpenAI allows 0–20); logprobs are returned with `include: ["message.output_text.logprobs"]`. */
  top_logprobs: z.number().int().min(0).max(20).nullish(),
  /** A conversation (`conv_…`, or `{id}`) whose items are the context and which gains this turn's items. */
  conversation: z.union([z.string().min(1), z.strictObject({ id: z.string().min(1) })]).nullish(),
  prompt: unsupported('Stored prompt templates are not supported by the local runtime; send instructions and input instead.'),
  /** `[{type: "compaction", compact_threshold?}]`: compact the older items when the prompt would cross the threshold (see server/request/auto-compaction.ts). */
  context_management: z.array(ContextManagementEntry).max(1).nullish(),
  access_programs: unsupported('Access programs (OpenAI’s cyber access tiers) do not exist in the local runtime; programmatic tool calling is the programmatic_tool_calling tool.'),
  /** Accepted (openai 7.59 `BackgroundOptions`); what applies is in background-options.ts. */
  background_options: BackgroundOptions.nullish(),
  image: unsupported(
    'Request-level image options (context_compression) are not supported: the local runtime shows each image to a model that sees as it was sent, and has no image model to compress or generate images with.',
  ),
  moderation: unsupported('Moderation is not available in the local runtime.'),
});
export type CreateResponseRequest = z.infer<typeof CreateResponseRequest>;

/**
 * The one validation entry for a create body (already JSON-parsed): an object, within the
 * nesting limit (checked first, iteratively: deep values must never reach zod or storage),
 * then the schema. Throws the OpenAI-shaped 400 naming the parameter.
 */
export function parseCreateRequest(body: unknown, extensions: ProtocolExtensions = NO_EXTENSIONS): CreateResponseRequest {
  if (!isJsonObject(body)) throw invalidRequest('The request body must be a JSON object.', null, Codes.invalidType);
  const tooDeep = nestingError(body);
  if (tooDeep) throw tooDeep;
  const parsed = schemaWith(extensions).safeParse(body);
  if (!parsed.success) throw validationError(parsed.error, body);
  // The tools of `additional_tools` items are tools like the request's own (plug-ins' included).
  checkContextItems(parsed.data.input, extensions.tools.length === 0 ? Tool : (schemaWith(extensions).shape.tools.unwrap().element as unknown as typeof Tool), body);
  return parsed.data;
}

const withExtensions = new WeakMap<ProtocolExtensions, typeof CreateResponseRequest>();

/**
 * The create schema with what plug-in tools add. Their entries and items are typed as the
 * SDK's own (`Tool`, `InputItem`) from here on: only the tool that owns them reads their
 * fields (the server looks them up in its tool registry before it looks at a `type`).
 */
function schemaWith(extensions: ProtocolExtensions): typeof CreateResponseRequest {
  if (extensions.tools.length === 0 && extensions.items.length === 0) return CreateResponseRequest;
  const known = withExtensions.get(extensions);
  if (known) return known;
  const tools = [...TOOL_OPTIONS, ...extensions.tools] as unknown as typeof TOOL_OPTIONS;
  const schema = CreateResponseRequest.extend({
    input: z.union([z.string(), z.array(inputItemSchema(extensions.items))]).optional(),
    tools: z.array(z.discriminatedUnion('type', tools)).max(MAX_TOOLS).optional(),
  }) as unknown as typeof CreateResponseRequest;
  withExtensions.set(extensions, schema);
  return schema;
}
