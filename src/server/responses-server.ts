/**
 * The Responses API as one web-standard function: `(Request) => Promise<Response>`.
 * It runs wherever Request/Response/streams exist — the runtime worker, a page, Node tests.
 *
 * @example
 * const server = createResponsesServer({ store, engines: [new ScriptedEngine()], formats: chatFormats });
 * const client = new OpenAI({ apiKey: 'local', baseURL: 'http://local/v1', fetch: (url, init) => server.fetch(new Request(url, init)) });
 */
import type { ChatFormat } from '../chat/chat-format';
import type { Engine } from '../ports/engine';
import { errorResponse } from '../protocol/error-response';
import type { ResponseStore } from '../ports/response-store';
import type { ResponseObject } from '../protocol/response-object';
import { ApiError, describeError } from '../shared/api-error';
import { HeldWritesStore } from './state/held-writes-store';
import { INTERRUPTED } from './run/response-run';
import { unreadableResponse } from './run/response-factory';
import type { BuiltinTool } from '../ports/builtin-tool';
import { ToolRegistry } from './state/tool-registry';
import { vectorSearchOf } from './files/vector-search';
import type { ModelManager } from '../ports/model-manager';
import { deleteCachedModel, loadModel, localStatus } from './routes/local-models';
import { listLocalConversations } from './routes/local-conversations';
import { listStoredResponses, pruneNow, storageSummary } from './routes/local-storage';
import { prune } from './state/retention';
import { DEFAULT_RETENTION, type RetentionPolicy } from '../protocol/runtime-options';
import { createResponse } from './routes/create-response';
import { countInputTokens } from './routes/input-tokens';
import { compactResponse } from './routes/compact-response';
import { createConversation, deleteConversation, retrieveConversation, updateConversation } from './routes/conversations';
import { addConversationItems, deleteConversationItem, listConversationItems, retrieveConversationItem } from './routes/conversation-items';
import { listInputItems } from './routes/list-input-items';
import { listModels, retrieveModel } from './routes/models';
import { cancelResponse, deleteResponse, retrieveResponse } from './routes/response-by-id';
import { connectionDeadline } from '../protocol/connection-deadline';
import { modelTable, type ServerState } from './state/server-state';
import { Codes } from '../shared/error-codes';
import type { KeyStore } from '../ports/key-store';
import { memoryKeyStore } from './sealing/memory-key-store';
import { reasoningSealer } from './sealing/encrypted-reasoning';
import { compactionSealer } from './sealing/compaction-sealer';
import type { SocketListener, SocketPeer } from '../ports/socket-peer';
import { ResponsesSocket } from './socket/responses-socket';
import { WS_CLOSE } from '../protocol/socket-frames';
import { ProviderRegistry, type ProvidersOptions } from './state/provider-registry';
import { createProvider, deleteProvider, listProviderModels, listProviders, retrieveProvider } from './routes/local-providers';
import { createRoute, deleteRoute, listRoutes, retrieveRoute } from './routes/local-routes';
import { RouteTable, type RoutesOptions } from './state/route-table';
import type { Embedder } from '../ports/embedder';
import type { ImageFetcher } from '../ports/image-fetcher';
import { createFilesState, type FilesOptions } from './files/files-state';
import { MAX_FILE_BYTES } from '../protocol/files';
import { createFile, deleteFileRoute, fileContent, listFiles, retrieveFile } from './routes/files';
import { createVectorStore, deleteVectorStore, listVectorStores, retrieveVectorStore, searchVectorStore, updateVectorStore } from './routes/vector-stores';
import { attachStoreFile, detachStoreFile, listStoreFiles, retrieveStoreFile, storeFileContent, updateStoreFile } from './routes/vector-store-files';
import { cancelFileBatch, createFileBatch, listBatchFiles, retrieveFileBatch } from './routes/file-batches';
import { createEmbeddings } from './routes/embeddings';

export interface ResponsesServerOptions {
  store: ResponseStore;
  engines: Engine[];
  formats: Record<string, ChatFormat>;
  /** Unix seconds (injectable for tests). */
  now?: () => number;
  /** Buffered stream events are written to IndexedDB at most this often (ms). */
  flushMs?: number;
  /** Event logs of responses finished longer ago than this are pruned at start (seconds). */
  eventLogMaxAge?: number;
  /** The builtin tools this runtime can run (each tool folder's descriptor; see `ports/builtin-tool.ts`). */
  tools?: readonly BuiltinTool[];
  /** Model management for the `/v1/local/*` routes (download, cache, status). */
  modelManager?: ModelManager;
  /** Model ⇄ builtin tool rounds per response (default 8); past it the response ends `incomplete`. */
  maxToolRounds?: number;
  /**
   * The engine that suits this device (`web-llm` with usable WebGPU, `wllama` otherwise):
   * `/v1/models` marks its models `recommended`. Clients may still choose any model.
   */
  preferredEngine?: string;
  /** How long stored responses are kept (default: 90 days, 200 MB; see retention.ts). */
  retention?: RetentionPolicy;
  /** WebSocket connections' lifetime (default 60 minutes, as on OpenAI; tests shorten it). */
  socketLifetimeMs?: number;
  /**
   * Where the key that seals reasoning `encrypted_content` is kept (store/key-store.ts).
   * Default: a key in memory, so sealed reasoning opens only while this server lives.
   */
  keys?: KeyStore;
  /** Remote providers: upstream servers whose models are served too (`/v1/local/providers`). Absent: none. */
  providers?: ProvidersOptions;
  /** Routes: a model of this device, then a provider's, under one name (`/v1/local/routes`). Only with `providers`. */
  routes?: RoutesOptions;
  /** Embedding models for `/v1/embeddings` and file search (`ports/embedder.ts`). */
  embedders?: Embedder[];
  /** The Files and Vector Stores APIs and the `file_search` tool; without it those routes answer 500. */
  files?: FilesOptions;
  /**
   * Fetches the `https:` images a request names, under a URL policy, for the model to be shown
   * as `data:` URLs (`tools/web/image-fetcher.ts`). Absent: such an image is a 400, and only
   * `data:` and `file_id` images are shown.
   */
  imageFetcher?: ImageFetcher;
  /** Told each response's end (terminal and stored when stored), e.g. to fetch what was deferred until a first answer. */
  onRunEnded?: (response: ResponseObject) => void;
}

export interface ResponsesServer {
  fetch(request: Request): Promise<Response>;
  /**
   * A WebSocket connection to `url` (`ws(s)://…/v1/responses`, the one endpoint with a
   * WebSocket mode): the server answers on `peer` and returns where the client's frames go.
   * Throws an ApiError (404) for any other URL: the connection is refused.
   */
  openSocket(url: string, peer: SocketPeer): SocketListener;
  /** Stops every run; each ends `failed` (interrupted) in storage. Open WebSockets close. */
  close(): Promise<void>;
}

export type Handler = (state: ServerState, request: Request, url: URL, params: string[]) => Promise<Response> | Response;
export type Route = { pattern: RegExp; methods: Record<string, Handler>; otherMethods?: 'unknown_url' };

/**
 * Routes under `/v1`, matched in order; a path that matches with the wrong method is a 405 —
 * except where the path segment may be an endpoint name we do not have rather than an id
 * (`POST /v1/responses/other`): that is an unknown URL, a 404, as OpenAI answers.
 */
const ROUTES: Route[] = [
  { pattern: /^\/v1\/responses$/, methods: { POST: (s, r) => createResponse(s, r) } },
  { pattern: /^\/v1\/responses\/input_tokens$/, methods: { POST: (s, r) => countInputTokens(s, r) } },
  { pattern: /^\/v1\/responses\/compact$/, methods: { POST: (s, r) => compactResponse(s, r) }, otherMethods: 'unknown_url' },
  {
    pattern: /^\/v1\/responses\/([^/]+)$/,
    methods: {
      GET: (s, r, u, [id]) => retrieveResponse(s, id!, u, r.signal, connectionDeadline(r)),
      DELETE: (s, _r, _u, [id]) => deleteResponse(s, id!),
    },
    otherMethods: 'unknown_url',
  },
  { pattern: /^\/v1\/responses\/([^/]+)\/cancel$/, methods: { POST: (s, _r, _u, [id]) => cancelResponse(s, id!) } },
  { pattern: /^\/v1\/responses\/([^/]+)\/input_items$/, methods: { GET: (s, _r, u, [id]) => listInputItems(s, id!, u) } },
  { pattern: /^\/v1\/conversations$/, methods: { POST: (s, r) => createConversation(s, r) } },
  {
    pattern: /^\/v1\/conversations\/([^/]+)$/,
    methods: {
      GET: (s, _r, _u, [id]) => retrieveConversation(s, id!),
      POST: (s, r, _u, [id]) => updateConversation(s, id!, r),
      DELETE: (s, _r, _u, [id]) => deleteConversation(s, id!),
    },
  },
  {
    pattern: /^\/v1\/conversations\/([^/]+)\/items$/,
    methods: {
      GET: (s, _r, u, [id]) => listConversationItems(s, id!, u),
      POST: (s, r, u, [id]) => addConversationItems(s, id!, r, u),
    },
  },
  {
    pattern: /^\/v1\/conversations\/([^/]+)\/items\/([^/]+)$/,
    methods: {
      GET: (s, _r, u, [id, itemId]) => retrieveConversationItem(s, id!, itemId!, u),
      DELETE: (s, _r, _u, [id, itemId]) => deleteConversationItem(s, id!, itemId!),
    },
  },
  { pattern: /^\/v1\/models$/, methods: { GET: (s) => listModels(s) } },
  // A provider's model ids have a slash (`lab/model`), its upstream ids may have more.
  { pattern: /^\/v1\/models\/(.+)$/, methods: { GET: (s, _r, _u, [id]) => retrieveModel(s, id!) } },
  { pattern: /^\/v1\/local\/status$/, methods: { GET: (s) => localStatus(s) } },
  { pattern: /^\/v1\/local\/conversations$/, methods: { GET: (s, _r, u) => listLocalConversations(s, u) } },
  { pattern: /^\/v1\/local\/responses$/, methods: { GET: (s, _r, u) => listStoredResponses(s, u) } },
  { pattern: /^\/v1\/local\/storage$/, methods: { GET: (s) => storageSummary(s) } },
  { pattern: /^\/v1\/local\/storage\/prune$/, methods: { POST: (s, r) => pruneNow(s, r) } },
  { pattern: /^\/v1\/local\/models\/([^/]+)\/load$/, methods: { POST: (s, r, _u, [id]) => loadModel(s, id!, r.signal) } },
  { pattern: /^\/v1\/local\/models\/([^/]+)$/, methods: { DELETE: (s, _r, _u, [id]) => deleteCachedModel(s, id!) } },
  { pattern: /^\/v1\/local\/providers$/, methods: { GET: (s) => listProviders(s), POST: (s, r) => createProvider(s, r) } },
  {
    pattern: /^\/v1\/local\/providers\/([^/]+)$/,
    methods: { GET: (s, _r, _u, [id]) => retrieveProvider(s, id!), DELETE: (s, _r, _u, [id]) => deleteProvider(s, id!) },
  },
  { pattern: /^\/v1\/local\/providers\/([^/]+)\/models$/, methods: { GET: (s, r, _u, [id]) => listProviderModels(s, id!, r.signal) } },
  { pattern: /^\/v1\/local\/routes$/, methods: { GET: (s) => listRoutes(s), POST: (s, r) => createRoute(s, r) } },
  { pattern: /^\/v1\/local\/routes\/([^/]+)$/, methods: { GET: (s, _r, _u, [id]) => retrieveRoute(s, id!), DELETE: (s, _r, _u, [id]) => deleteRoute(s, id!) } },
  { pattern: /^\/v1\/files$/, methods: { POST: (s, r) => createFile(s, r), GET: (s, _r, u) => listFiles(s, u) } },
  { pattern: /^\/v1\/files\/([^/]+)$/, methods: { GET: (s, _r, _u, [id]) => retrieveFile(s, id!), DELETE: (s, _r, _u, [id]) => deleteFileRoute(s, id!) } },
  { pattern: /^\/v1\/files\/([^/]+)\/content$/, methods: { GET: (s, _r, _u, [id]) => fileContent(s, id!) } },
  { pattern: /^\/v1\/vector_stores$/, methods: { POST: (s, r) => createVectorStore(s, r), GET: (s, _r, u) => listVectorStores(s, u) } },
  {
    pattern: /^\/v1\/vector_stores\/([^/]+)$/,
    methods: {
      GET: (s, _r, _u, [id]) => retrieveVectorStore(s, id!),
      POST: (s, r, _u, [id]) => updateVectorStore(s, id!, r),
      DELETE: (s, _r, _u, [id]) => deleteVectorStore(s, id!),
    },
  },
  { pattern: /^\/v1\/vector_stores\/([^/]+)\/search$/, methods: { POST: (s, r, _u, [id]) => searchVectorStore(s, id!, r) } },
  { pattern: /^\/v1\/vector_stores\/([^/]+)\/files$/, methods: { POST: (s, r, _u, [id]) => attachStoreFile(s, id!, r), GET: (s, _r, u, [id]) => listStoreFiles(s, id!, u) } },
  {
    pattern: /^\/v1\/vector_stores\/([^/]+)\/files\/([^/]+)$/,
    methods: {
      GET: (s, _r, _u, [id, fileId]) => retrieveStoreFile(s, id!, fileId!),
      POST: (s, r, _u, [id, fileId]) => updateStoreFile(s, id!, fileId!, r),
      DELETE: (s, _r, _u, [id, fileId]) => detachStoreFile(s, id!, fileId!),
    },
  },
  { pattern: /^\/v1\/vector_stores\/([^/]+)\/files\/([^/]+)\/content$/, methods: { GET: (s, _r, _u, [id, fileId]) => storeFileContent(s, id!, fileId!) } },
  { pattern: /^\/v1\/vector_stores\/([^/]+)\/file_batches$/, methods: { POST: (s, r, _u, [id]) => createFileBatch(s, id!, r) } },
  { pattern: /^\/v1\/vector_stores\/([^/]+)\/file_batches\/([^/]+)$/, methods: { GET: (s, _r, _u, [id, batchId]) => retrieveFileBatch(s, id!, batchId!) } },
  { pattern: /^\/v1\/vector_stores\/([^/]+)\/file_batches\/([^/]+)\/cancel$/, methods: { POST: (s, _r, _u, [id, batchId]) => cancelFileBatch(s, id!, batchId!) } },
  { pattern: /^\/v1\/vector_stores\/([^/]+)\/file_batches\/([^/]+)\/files$/, methods: { GET: (s, _r, u, [id, batchId]) => listBatchFiles(s, id!, batchId!, u) } },
  { pattern: /^\/v1\/embeddings$/, methods: { POST: (s, r) => createEmbeddings(s, r) } },
];

/**
 * A path segment as the id it names. A malformed escape (`%`, `%ZZ`) cannot be decoded, so
 * it stays as sent: no stored id contains `%`, and the route answers its usual 404.
 */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The answer to a HEAD: the GET's status and headers; a streamed body is cancelled, not read. */
function withoutBody(response: Response): Response {
  void response.body?.cancel().catch(() => undefined);
  return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export async function createResponsesServer(options: ResponsesServerOptions): Promise<ResponsesServer> {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const keys = options.keys ?? memoryKeyStore();
  const state: ServerState = {
    // Writes refused for lack of space are held in memory, so no accepted response loses its end.
    store: new HeldWritesStore(options.store),
    runs: new Map(),
    models: modelTable(options.engines, options.formats),
    now,
    flushMs: options.flushMs ?? 50,
    tools: new ToolRegistry(options.tools ?? []),
    toolHost: {},
    sealer: reasoningSealer(keys),
    compactions: compactionSealer(keys),
    maxToolRounds: options.maxToolRounds ?? 8,
    retention: options.retention ?? DEFAULT_RETENTION,
    retentionRanAt: 0,
    ...(options.modelManager ? { modelManager: options.modelManager } : {}),
    ...(options.preferredEngine ? { preferredEngine: options.preferredEngine } : {}),
    ...(options.providers ? { providers: await ProviderRegistry.open(options.providers, now) } : {}),
    embedders: new Map((options.embedders ?? []).map((e) => [e.info.id, e])),
    ...(options.onRunEnded ? { onRunEnded: options.onRunEnded } : {}),
    ...(options.imageFetcher ? { imageFetcher: options.imageFetcher } : {}),
  };
  // Routes are checked against the models and providers, so they open after both.
  if (state.providers)
    state.routes = await RouteTable.open(
      options.routes ?? {},
      { isLocalModel: (id) => state.models.has(id), isModelId: (id) => state.models.has(id) || state.embedders.has(id), providers: state.providers },
      now,
    );
  if (options.files) {
    state.files = createFilesState(options.files, { embedder: (id) => state.embedders.get(id) ?? state.providers?.embedder(id), now, busy: () => state.runs.size > 0, maxFileBytes: MAX_FILE_BYTES });
    state.toolHost.vectorSearch = vectorSearchOf(state.files);
  }
  // Whatever an earlier runtime left running can never finish now. None of this upkeep may
  // keep the runtime from starting (storage full, a row it cannot read): a failure is
  // logged, reads still work, and the next start tries again.
  await state.store
    .failUnfinished(INTERRUPTED, now(), (id, reason, salvage) => unreadableResponse(id, reason, salvage, now()))
    .catch((err: unknown) => console.error(`Could not mark interrupted responses failed at start: ${describeError(err)}`));
  await state.store
    .pruneEventLogs(now() - (options.eventLogMaxAge ?? 7 * 24 * 3600))
    .catch((err: unknown) => console.error(`Could not prune old event logs at start: ${describeError(err)}`));
  await prune(state).catch((err: unknown) => console.error(`Could not apply the retention policy at start: ${describeError(err)}`));
  const sockets = new Set<ResponsesSocket>();
  // Files a closed tab left being read are read again (in the background, behind any chat).
  await state.files?.ingestion.resume().catch((err: unknown) => console.error(`Could not resume file ingestion at start: ${describeError(err)}`));

  return {
    async fetch(request) {
      const url = new URL(request.url);
      // HEAD is GET without the body (RFC 9110 §9.3.2): same status and headers.
      const head = request.method === 'HEAD';
      try {
        for (const route of ROUTES) {
          const match = route.pattern.exec(url.pathname);
          if (!match) continue;
          const handler = route.methods[head && route.methods.GET ? 'GET' : request.method];
          if (!handler && route.otherMethods === 'unknown_url') break;
          if (!handler) {
            const allowed = Object.keys(route.methods).flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
            throw new ApiError({
              status: 405,
              type: 'invalid_request_error',
              code: Codes.methodNotAllowed,
              param: null,
              message: `Method ${request.method} is not allowed on ${url.pathname}. Allowed: ${allowed.join(', ')}.`,
            });
          }
          const response = await handler(state, request, url, match.slice(1).map(decodeSegment));
          return head ? withoutBody(response) : response;
        }
        throw new ApiError({ status: 404, type: 'invalid_request_error', code: Codes.unknownUrl, param: null, message: `Invalid URL (${request.method} ${url.pathname})` });
      } catch (err) {
        const response = errorResponse(err);
        return head ? withoutBody(response) : response;
      }
    },
    openSocket(url, peer) {
      const { pathname } = new URL(url);
      if (pathname !== '/v1/responses')
        throw new ApiError({ status: 404, type: 'invalid_request_error', code: Codes.unknownUrl, param: null, message: `No WebSocket endpoint at ${pathname}: WebSocket mode is /v1/responses.` });
      const socket: ResponsesSocket = new ResponsesSocket(state, peer, { ...(options.socketLifetimeMs !== undefined ? { lifetimeMs: options.socketLifetimeMs } : {}) }, () => sockets.delete(socket));
      sockets.add(socket);
      return socket;
    },
    async close() {
      for (const socket of [...sockets]) socket.end(WS_CLOSE.goingAway, 'the local runtime is shutting down');
      const runs = [...state.runs.values()];
      for (const run of runs) run.stop('shutdown');
      await Promise.allSettled(runs.map((r) => r.done));
      if (state.files) {
        state.files.ingestion.cancel(() => true);
        await state.files.ingestion.idle();
        await state.files.indexes.saveAll();
      }
    },
  };
}
