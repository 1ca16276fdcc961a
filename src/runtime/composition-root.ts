/**
 * Wires the concrete pieces of a local runtime: the IndexedDB store, the engines and the
 * Responses server. Called by the runtime worker entry (and by tests that want the whole
 * server in one call).
 */
import { chatFormats } from '../chat/chat-formats';
import type { Engine } from '../ports/engine';
import { cpuThreads } from '../engine/cpu-threads';
import { isolationStatus } from '../engine/cross-origin-isolation';
import { BrowserDeviceStatus } from '../engine/device-status';
import { ScriptedEngine } from '../engine/scripted-engine';
import { WEBLLM_EMBEDDING_CATALOG, WebLlmEmbedder, WebLlmEngine, WebLlmModels } from '../engine/webllm';
import { createResponsesServer, type ResponsesServer } from '../server/responses-server';
import { RuntimeModelManager } from './runtime-model-manager';
import { sleep } from '../shared/abort';
import { openIdbStore } from '../store/idb-store';
import { openIdbKeyStore } from '../store/key-store';
import { DEFAULT_RETENTION, type RuntimeStartOptions } from '../protocol/runtime-options';
import { openIdbFileStore } from '../store/idb-file-store';
import { createWorkerExtractor, lazyMinisearchIndexes } from '../tools/file-search';
import { builtinTools } from '../tools/builtin-tools';
import { TestEmbedder } from '../engine/test-embedder';
import type { Embedder } from '../ports/embedder';
import { openIdbProviderStore } from '../store/idb-provider-store';
import { openIdbRouteStore } from '../store/idb-route-store';
import { providerConnector } from '../engine/remote';
import { preferredEngine } from './preferred-engine';
import { createRuntimeTools } from '../tools/runtime-tools';
import { createPolicyImageFetcher } from '../tools/web';
import type { ResponseObject } from '../protocol/response-object';

/** The runtime's start options (whole, as the worker got them) and what only the worker's host can give. */
export interface LocalServerOptions extends RuntimeStartOptions {
  /** IndexedDB database name (tests use a fresh one). */
  dbName?: string;
  /** Asks the page for persistent storage before a download (workers have no `persist()`). */
  requestPersist?: () => Promise<boolean>;
  /** Told when a response has completed (or ended `incomplete`): an answer was given. */
  onAnswer?: () => void;
}

export type LocalServer = ResponsesServer;

/** How long the start waits for WebGPU detection (a wedged driver must not stall it). */
const GPU_DETECT_WAIT_MS = 2000;

export async function createLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  // Real models (web-llm) are always served; whether they can run is for a request to tell.
  const webllm = new WebLlmEngine({
    ...(options.modelBase ? { modelBase: options.modelBase } : {}),
    ...(options.requestPersist ? { requestPersist: options.requestPersist } : {}),
  });
  // `/v1/models` gives the sizes of the build this device loads (q4f32 without shader-f16),
  // so the GPU is detected first, while the store opens. The CPU engine (GGUF files side by
  // side in the same mirror, `{modelBase}/{file}`) is opt-in and imported only then, so an
  // app on web-llm alone never loads it; meanwhile too, not after (its catalog lists its
  // models; llama.cpp itself is imported when a model is loaded). Its models are
  // `recommended` when WebGPU is not usable.
  // Routes' settings: opened beside the other stores (one database, each its own connection).
  const routeStore = openIdbRouteStore(options.dbName ? { name: options.dbName } : {});
  const [store, keys, gpu, cpu, fileStore, providerStore] = await Promise.all([
    openIdbStore(options.dbName ? { name: options.dbName } : {}),
    openIdbKeyStore(options.dbName ? { name: options.dbName } : {}),
    Promise.race([webllm.gpuSupport().catch(() => null), sleep(GPU_DETECT_WAIT_MS)]),
    options.cpuEngine ? import('./wllama-runtime') : undefined,
    openIdbFileStore(options.dbName ? { name: options.dbName } : {}),
    openIdbProviderStore(options.dbName ? { name: options.dbName } : {}),
  ]);
  // Threads need SharedArrayBuffer: the runtime worker is isolated when its page is.
  const isolation = isolationStatus();
  const threads = cpuThreads({ isolated: isolation.crossOriginIsolated, cores: navigator.hardwareConcurrency, requested: options.cpu?.threads });
  const wllama = cpu && options.cpuEngine
    ? cpu.createWllamaEngine({ wasmUrl: options.cpuEngine.wasmUrl, testModels: options.testModels, threads, ...(options.modelBase ? { ggufBase: options.modelBase } : {}) })
    : undefined;
  const engines: Engine[] = [...(options.testModels ? [new ScriptedEngine()] : []), webllm, ...(wllama ? [wllama] : [])];
  // The builtin tools: one descriptor per folder of tools/, the one registry the server knows.
  // Each tool's code is imported at its first call (web search and MCP carry an HTML parser
  // and the MCP SDK): nothing of it is on the way to the runtime's start or first answer.
  const tools = builtinTools(createRuntimeTools(options.tools, { origin: self.location.origin }));
  // Downloads, cache and status for the engines' models; GPU and storage as web-llm sees them.
  const deviceFacts = { isolation, ...(wllama ? { threads: () => wllama.threads() } : {}) };
  const modelManager = new RuntimeModelManager(new BrowserDeviceStatus(webllm, undefined, deviceFacts), [new WebLlmModels(webllm), ...(cpu && wllama ? [new cpu.WllamaModels(wllama)] : [])]);
  const retention = { ...DEFAULT_RETENTION, ...options.retention };
  const cpuOptions = options.cpuEngine ? { wasmUrl: options.cpuEngine.wasmUrl, testModels: options.testModels, threads, ...(options.modelBase ? { ggufBase: options.modelBase } : {}) } : undefined;
  // Embedding models: web-llm's on the GPU, the CPU engine's GGUF ones, and test-embedding with the test models.
  const gpuEmbedders = WEBLLM_EMBEDDING_CATALOG.map((entry) => new WebLlmEmbedder(entry, options.modelBase ? { modelBase: options.modelBase } : {}));
  const embedders: Embedder[] = [...(options.testModels ? [new TestEmbedder()] : []), ...gpuEmbedders, ...(cpu && cpuOptions ? cpu.createWllamaEmbedders(cpuOptions) : [])];
  // Uploaded files are parsed in a worker of their own, one per file (tools/file-search/).
  const files = {
    store: fileStore,
    extractor: createWorkerExtractor(),
    indexes: lazyMinisearchIndexes,
    ...(options.fileSearch?.embeddingModel ? { embeddingModel: options.fileSearch.embeddingModel } : {}),
  };
  const onAnswer = options.onAnswer;
  // Remote providers: requests go straight from this worker to their servers (remote/ wing).
  const origin = self.location.origin;
  const providers = { store: providerStore, connect: providerConnector({ appOrigin: origin }), appOrigin: origin, ...(options.providers ? { initial: options.providers } : {}) };
  return createResponsesServer({
    store,
    keys,
    engines,
    formats: chatFormats,
    tools,
    modelManager,
    preferredEngine: preferredEngine(gpu),
    retention,
    embedders,
    files,
    providers,
    // The https: images a request names: fetched here, under the web tools' URL policy (public hosts only), never by an engine.
    imageFetcher: createPolicyImageFetcher({ policy: { appOrigin: origin } }),
    routes: { store: await routeStore, ...(options.routes ? { initial: options.routes } : {}) },
    ...(onAnswer ? { onRunEnded: (response: ResponseObject) => void (answered(response) && onAnswer()) } : {}),
  });
}

/** Whether a response that ended gave an answer (a failed or cancelled one did not). */
function answered(response: ResponseObject): boolean {
  return response.status === 'completed' || response.status === 'incomplete';
}
