/**
 * A fresh Responses server on fake-indexeddb and the real `openai` SDK pointed at it.
 * The SDK's `fetch` calls the server function directly: no network, same HTTP semantics.
 */
import type { APIError } from 'openai';
import { afterEach } from 'vitest';
import 'fake-indexeddb/auto';
import OpenAI from 'openai';
import { chatFormats } from '../../src/chat/chat-formats';
import type { Engine } from '../../src/ports/engine';
import { ScriptedEngine } from '../../src/engine/scripted-engine';
import { createResponsesServer, type ResponsesServer, type ResponsesServerOptions } from '../../src/server/responses-server';
import { openIdbStore } from '../../src/store/idb-store';
import { openIdbKeyStore } from '../../src/store/key-store';
import type { KeyStore } from '../../src/ports/key-store';
import type { ResponseStore } from '../../src/ports/response-store';
import type { ToolPorts } from '../../src/ports/tool-ports';
import { readSse } from '../../src/protocol/sse';
import { ResponseObject } from '../../src/protocol/response-object';
import { ConversationDeleted, ConversationObject } from '../../src/protocol/conversation';
import { StoredItem } from '../../src/protocol/output-items';
import { StreamEvent } from '../../src/protocol/stream-events';
import { openIdbFileStore } from '../../src/store/idb-file-store';
import type { FileStore } from '../../src/ports/file-store';
import type { FilesOptions } from '../../src/server/files/files-state';
import { minisearchIndexes } from '../../src/tools/file-search/minisearch-index';
import { builtinTools } from '../../src/tools/builtin-tools';
import type { BuiltinTool } from '../../src/ports/builtin-tool';
import type { ZodType } from 'zod';
import { TestEmbedder } from '../../src/engine/test-embedder';
import { inlineExtractor } from './inline-extractor';
import { validateCompactResource, validateErrorBody, validateItem, validateResponseObject, validateStreamEvent } from './openresponses-validator';

let counter = 0;

export interface LocalClient {
  client: OpenAI;
  server: ResponsesServer;
  store: ResponseStore;
  /** The origin's key store (in the same fake-indexeddb database). */
  keys: KeyStore;
  /** The file store, when the client was made with `files`. */
  fileStore?: FileStore & { close(): void };
  dbName: string;
  /** Raw HTTP against the server (for malformed requests the SDK would not send). */
  http(path: string, init?: RequestInit): Promise<Response>;
  /**
   * Every answer the server gives is checked against the Open Responses document in the
   * background; what did not validate is collected here (tests assert it stays empty).
   */
  specViolations: string[];
  /** Waits for the background checks of every answer so far. */
  checked(): Promise<void>;
}

export interface LocalClientOptions {
  dbName?: string;
  /** The builtin tools' ports (the tools themselves are the package's, `builtinTools`). */
  tools?: ToolPorts;
  /** More builtin tools, registered beside the package's (a plug-in under test). */
  extraTools?: BuiltinTool[];
  maxToolRounds?: number;
  engine?: Engine;
  /** Puts a fake in front of the real (fake-indexeddb) store, e.g. one whose disk is full. */
  wrapStore?: (store: ResponseStore) => ResponseStore;
  /** Any other server option (clock, retention, …). */
  server?: Partial<ResponsesServerOptions>;
  /** How each request reaches the server, e.g. as Firefox has it (test/fakes/streamless-request.ts). */
  requestAs?: (request: Request) => Request;
  /**
   * Files and vector stores on the same fake-indexeddb database (inline text extraction,
   * minisearch, `test-embedding`); options override the defaults, `wrapFiles` puts a fake in
   * front of the file store.
   */
  files?: true | (Partial<FilesOptions> & { wrapFiles?: (store: FileStore) => FileStore });
}

export async function localClient(options: LocalClientOptions = {}): Promise<LocalClient> {
  const dbName = options.dbName ?? `test-${process.pid}-${Date.now()}-${counter++}`;
  const opened = await openIdbStore({ name: dbName });
  const store = options.wrapStore ? options.wrapStore(opened) : opened;
  const keys = await openIdbKeyStore({ name: dbName });
  const fileOptions = options.files === true ? {} : options.files;
  const fileStore = fileOptions ? await openIdbFileStore({ name: dbName }) : undefined;
  const files: FilesOptions | undefined = fileOptions && fileStore
    ? { store: fileOptions.wrapFiles ? fileOptions.wrapFiles(fileStore) : fileStore, extractor: inlineExtractor(), indexes: minisearchIndexes, pollAfterMs: 5, ...fileOptions }
    : undefined;
  const tools = [...builtinTools(options.tools ?? {}), ...(options.extraTools ?? [])];
  const server = await createResponsesServer({
    store,
    keys,
    engines: [options.engine ?? new ScriptedEngine()],
    formats: chatFormats,
    flushMs: 5,
    tools,
    ...(options.maxToolRounds ? { maxToolRounds: options.maxToolRounds } : {}),
    ...(files ? { files, embedders: [new TestEmbedder()] } : {}),
    ...options.server,
  });
  const specViolations: string[] = [];
  const pending: Promise<void>[] = [];
  // Tools that bring their own wire schemas (plug-ins, and builtins kept outside protocol/'s unions: tool search).
  const plugins = pluginShapes(tools.filter((tool) => tool.schemas));
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    const request = new Request(url, init);
    const response = await server.fetch(options.requestAs ? options.requestAs(request) : request);
    // A HEAD answer has no body to check (its GET twin is checked when sent).
    if (request.method !== 'HEAD')
      pending.push(checkAgainstSpec(String(url), response.clone(), plugins).catch((err: Error) => void specViolations.push(`${String(url)}: ${err.message}`)));
    return response;
  };
  const client = new OpenAI({ apiKey: 'local', baseURL: 'http://local.test/v1', maxRetries: 0, fetch });
  return {
    client,
    server,
    store,
    keys,
    ...(fileStore ? { fileStore } : {}),
    dbName,
    http: (path, init) => fetch(`http://local.test${path}`, init),
    specViolations,
    checked: async () => void (await Promise.all(pending)),
  };
}

/**
 * Validates one answer: JSON errors as ErrorPayload, Response objects as ResponseResource,
 * listed items as ItemField, and each SSE event by its type.
 */
/**
 * What plug-in tools (registered by a test) add to answers: neither the document nor our zod
 * schemas know their items and entries, so each is checked against its own tool's schemas and
 * then left out of what the rest is checked against.
 */
interface PluginShapes {
  /** Each plug-in item type with a schema that must accept its items (one of the tool's item schemas). */
  items: Map<string, { parse(value: unknown): unknown }>;
  tools: Map<string, ZodType>;
}

function pluginShapes(tools: readonly BuiltinTool[]): PluginShapes {
  const items = new Map<string, { parse(value: unknown): unknown }>();
  const entries = new Map<string, ZodType>();
  for (const tool of tools) {
    const schemas = tool.schemas?.items ?? [];
    const anyOf = {
      parse(value: unknown) {
        if (!schemas.some((schema) => schema.safeParse(value).success)) throw new Error(`${tool.name}'s item does not match its schemas: ${JSON.stringify(value)}`);
        return value;
      },
    };
    for (const type of tool.itemTypes) items.set(type, anyOf);
    if (tool.schemas?.entry) for (const type of tool.toolTypes) entries.set(type, tool.schemas.entry);
  }
  return { items, tools: entries };
}

/** `value` with the plug-ins' items and tool entries checked by their schemas and taken out. */
function withoutPlugins<T>(value: T, plugins: PluginShapes): T {
  if (plugins.items.size === 0 && plugins.tools.size === 0) return value;
  const isPluginItem = (v: unknown): boolean => {
    const schema = plugins.items.get((v as { type?: string } | null)?.type ?? '');
    if (!schema) return false;
    schema.parse(v);
    return true;
  };
  const copy = structuredClone(value) as Record<string, unknown>;
  if (Array.isArray(copy.output)) copy.output = copy.output.filter((item) => !isPluginItem(item));
  if (Array.isArray(copy.data)) copy.data = copy.data.filter((item) => !isPluginItem(item));
  if (Array.isArray(copy.tools)) copy.tools = copy.tools.filter((tool: { type: string }) => !(plugins.tools.get(tool.type)?.parse(tool) ?? false));
  if (copy.response) copy.response = withoutPlugins(copy.response, plugins);
  return copy as T;
}

async function checkAgainstSpec(url: string, response: Response, plugins: PluginShapes): Promise<void> {
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream') && response.body) {
    for await (const message of readSse(response.body)) {
      if (message.data === '[DONE]') continue;
      const event = JSON.parse(message.data) as { type: string; response?: unknown };
      if (message.event !== event.type) throw new Error(`SSE event line '${message.event}' differs from data.type '${event.type}'`);
      const item = (event as { item?: { type?: string } }).item;
      // A plug-in's item announced (`output_item.added/.done`): its own schema checks it.
      if (item?.type && plugins.items.has(item.type)) plugins.items.get(item.type)!.parse(item);
      else checkEvent(withoutPlugins(event, plugins));
    }
    return;
  }
  if (!type.startsWith('application/json')) return; // file bytes (`/files/{id}/content`)
  const body = withoutPlugins((await response.json()) as Record<string, unknown>, plugins);
  if (!response.ok) return validateErrorBody(body);
  if (body.object === 'response') return checkResponse(body);
  if (body.object === 'response.compaction') return validateCompactResource(body);
  if (body.object === 'list' && Array.isArray(body.data) && url.includes('/input_items'))
    (body.data as Array<{ type: string }>).forEach((item) => (BUILTIN_ITEM_TYPES.has(item.type) ? StoredItem.parse(item) : validateItem(withoutFileCitations(item))));
  // The document defines no conversation objects: those are checked against our zod schemas
  // (proven against the SDK's types in sdk-types.test.ts); their items are ItemFields.
  if (body.object === 'conversation') ConversationObject.strict().parse(body);
  if (body.object === 'conversation.deleted') ConversationDeleted.strict().parse(body);
  if (url.includes('/conversations/') && /\/items(\/[^/?]+)?(\?|$)/.test(new URL(url).pathname + '?')) {
    const items = body.object === 'list' ? (body.data as unknown[]) : body.object === undefined ? [body] : [];
    if (body.object === 'list') {
      for (const key of ['first_id', 'last_id', 'has_more']) if (!(key in body)) throw new Error(`conversation item list without '${key}'`);
    }
    for (const item of items) checkItem(item);
  }
}

function checkItem(item: unknown): void {
  StoredItem.parse(item);
  if (!BUILTIN_ITEM_TYPES.has((item as { type: string }).type)) validateItem(withoutFileCitations(item));
}

/**
 * The Open Responses document has no schemas for OpenAI's builtin tools (their items,
 * events and tool entries keep OpenAI's names, as spec/README.md says): those parts are
 * checked against our own zod schemas (themselves proven against the SDK's types by tsc),
 * everything else against the document.
 */
const BUILTIN_ITEM_TYPES = new Set([
  'code_interpreter_call',
  'web_search_call',
  'file_search_call',
  'mcp_list_tools',
  'mcp_call',
  'mcp_approval_request',
  'mcp_approval_response',
  // OpenAI's tools whose calls the client runs (the document has only function tools).
  'custom_tool_call',
  'custom_tool_call_output',
  'shell_call',
  'shell_call_output',
  'local_shell_call',
  'local_shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'computer_call',
  'computer_call_output',
  // OpenAI's context items (openai 7.59), which the document does not have.
  'additional_tools',
  'configuration_update',
  // Programmatic tool calling (the document has no programs).
  'program',
  'program_output',
]);
const BUILTIN_EVENT = /^response\.(code_interpreter_call|code_interpreter_call_code|web_search_call|file_search_call|mcp_call|mcp_call_arguments|mcp_list_tools|custom_tool_call_input)\./;

/** Checks one stream event: builtin tool events against our zod schemas, everything else against the document. */
export function checkEvent(raw: { type: string; response?: unknown; item?: { type?: string }; annotation?: { type?: string } }): void {
  // A file citation (file search) is OpenAI's, not the document's: zod and tsc check it.
  if (raw.annotation?.type === 'file_citation') {
    StreamEvent.parse(raw);
    return;
  }
  const event = withoutFileCitations(raw);
  if (BUILTIN_EVENT.test(event.type) || (event.item?.type && BUILTIN_ITEM_TYPES.has(event.item.type))) {
    StreamEvent.parse(event);
    return;
  }
  if (event.response) {
    StreamEvent.parse(event);
    validateStreamEvent({ ...event, response: specShape(event.response) });
    return;
  }
  validateStreamEvent(event);
}

function checkResponse(body: unknown): void {
  ResponseObject.parse(body);
  validateResponseObject(specShape(body));
}

/**
 * The document's view of a response: builtin items and tool entries left out (checked by
 * zod above), and one known defect worked around — its `JsonSchemaResponseFormat` types
 * `schema` as `{"type": "null"}` (no real schema could ever be echoed) and requires a
 * `description` the SDK's type does not allow as null, so an echoed `json_schema` format
 * is checked by zod and tsc only.
 */
function specShape(value: unknown): unknown {
  const copy = structuredClone(value) as { text?: { format?: { type?: string } }; output?: Array<{ type: string }>; tools?: Array<{ type: string }> };
  if (copy.text?.format?.type === 'json_schema') copy.text.format = { type: 'text' };
  if (copy.output) copy.output = copy.output.filter((item) => !BUILTIN_ITEM_TYPES.has(item.type)).map(withoutFileCitations);
  if (copy.tools) copy.tools = copy.tools.filter((tool) => tool.type === 'function');
  // A `tool_choice` naming one of OpenAI's other tools (checked by zod above).
  const choice = (copy as { tool_choice?: unknown }).tool_choice;
  if (typeof choice === 'object' && choice !== null && ['custom', 'shell', 'apply_patch', 'programmatic_tool_calling'].includes((choice as { type: string }).type)) (copy as { tool_choice?: unknown }).tool_choice = 'auto';
  // `allowed_tools` entries naming them (or a namespace): the document allows function entries only.
  if (typeof choice === 'object' && choice !== null && (choice as { type: string }).type === 'allowed_tools') {
    const allowed = choice as { tools: Array<{ type: string; name?: string; namespace?: string }> };
    const functions = allowed.tools.filter((t) => t.type === 'function' && t.namespace === undefined && !t.name?.includes('.'));
    (copy as { tool_choice?: unknown }).tool_choice = functions.length ? { ...allowed, tools: functions } : 'auto';
  }
  return copy;
}

/**
 * The document's view of a value: `file_citation` annotations (OpenAI's, file search) left out
 * wherever they are — the document knows only URL citations; zod and tsc check them.
 */
function withoutFileCitations<T>(value: T): T {
  if (Array.isArray(value)) return value.filter((v) => (v as { type?: unknown } | null)?.type !== 'file_citation' || !isAnnotation(v)).map(withoutFileCitations) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutFileCitations(v)])) as T;
}

function isAnnotation(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'file_id' in value && 'index' in value;
}

/** Closes a test's server and asserts every answer it gave matched the Open Responses document. */
export async function closeAndCheck(local: LocalClient): Promise<void> {
  await local.server.close();
  await local.checked();
  local.store.close();
  local.keys.close();
  local.fileStore?.close();
  if (local.specViolations.length) throw new Error(`Answers that do not match the Open Responses document:\n${local.specViolations.join('\n')}`);
}

/** The user input that makes `test-scripted` play `script`. */
export function script(output: string | string[], extra: { delay_ms?: number; fail_after?: number; chunk?: number } = {}): string {
  return JSON.stringify({ script: output, ...extra });
}

/** The SDK's error of a request that must fail; a request that succeeds fails the test. */
export function failed(request: Promise<unknown>): Promise<APIError> {
  return request.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (e: unknown) => e as APIError,
  );
}

/**
 * Call at a test file's top level: returns a maker of clients with the Files API on; each
 * one made is closed (and checked) after its test.
 */
export function clientsWithFiles(): (options?: LocalClientOptions) => Promise<LocalClient> {
  const open: LocalClient[] = [];
  afterEach(async () => {
    for (const local of open.splice(0)) await closeAndCheck(local);
  });
  return async (options = {}) => {
    const local = await localClient({ files: true, ...options });
    open.push(local);
    return local;
  };
}
