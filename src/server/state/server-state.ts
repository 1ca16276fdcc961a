/** What every route handler shares: storage, engines and the runs in flight. */
import type { ChatFormat } from '../../chat/chat-format';
import type { Engine, ModelInfo } from '../../ports/engine';
import type { ResponseStore } from '../../ports/response-store';
import type { ResponseObject } from '../../protocol/response-object';
import { notFound } from '../../shared/api-error';
import { EngineQueue } from './engine-queue';
import type { RunningResponse } from './running-response';
import type { ToolHost } from '../../ports/builtin-tool';
import type { ToolRegistry } from './tool-registry';
import type { ModelManager } from '../../ports/model-manager';
import type { RetentionPolicy } from '../../protocol/runtime-options';
import { Codes } from '../../shared/error-codes';
import type { ReasoningSealer } from '../sealing/encrypted-reasoning';
import type { CompactionSealer } from '../sealing/compaction-sealer';
import type { ProviderRegistry } from './provider-registry';
import type { RouteTable } from './route-table';
import type { Embedder } from '../../ports/embedder';
import type { FilesState } from '../files/files-state';
import type { ImageFetcher } from '../../ports/image-fetcher';

export interface ServedModel {
  info: ModelInfo;
  engine: Engine;
  format: ChatFormat;
  queue: EngineQueue;
}

export interface ServerState {
  store: ResponseStore;
  /** Running responses by id (stored or not); removed once terminal and persisted. */
  runs: Map<string, RunningResponse>;
  models: Map<string, ServedModel>;
  /** Unix seconds. */
  now: () => number;
  flushMs: number;
  /** Seals and opens reasoning items' `encrypted_content` with this origin's key. */
  sealer: ReasoningSealer;
  /** Seals and opens compaction items' `encrypted_content` (the same key). */
  compactions: CompactionSealer;
  /** The builtin tools this runtime has: all the server knows of tools. */
  tools: ToolRegistry;
  /** What the runtime offers tools besides their own ports (vector search, once there is a file store). */
  toolHost: ToolHost;
  /** Download/cache/status for `/v1/local/*`; absent in runtimes without real models. */
  modelManager?: ModelManager;
  /** Model ⇄ builtin tool rounds allowed per response before it ends `incomplete`. */
  maxToolRounds: number;
  /** How long stored responses are kept (see retention.ts). */
  retention: RetentionPolicy;
  /** When retention last ran (ms, `Date.now()`), so finishing responses prune at most once a minute. */
  retentionRanAt: number;
  /** Name of the engine that suits this device; its models are `recommended` in `/v1/models`. */
  preferredEngine?: string;
  /** Remote providers (upstream servers) whose models are served too; absent: none can be added. */
  providers?: ProviderRegistry;
  /** Routes (a model of this device, then a provider's, under one name); present with `providers`. */
  routes?: RouteTable;
  /** Embedding models (`/v1/embeddings`, file search), by id. */
  embedders: ReadonlyMap<string, Embedder>;
  /** Files, vector stores and file search; absent in a runtime without a file store. */
  files?: FilesState;
  /** Fetches the https: images a request names (ports/image-fetcher.ts); absent: such images are a 400. */
  imageFetcher?: ImageFetcher;
  /** Told each response's end (see `ResponsesServerOptions.onRunEnded`). */
  onRunEnded?: (response: ResponseObject) => void;
}

export function modelTable(engines: Engine[], formats: Record<string, ChatFormat>): Map<string, ServedModel> {
  const table = new Map<string, ServedModel>();
  for (const engine of engines) {
    // One queue per engine: an engine generates one response at a time, whatever the model.
    const queue = new EngineQueue();
    for (const info of engine.models()) {
      const format = formats[info.chat_format];
      if (!format) throw new Error(`Model ${info.id} needs chat format '${info.chat_format}', which is not registered.`);
      table.set(info.id, { info, engine, format, queue });
    }
  }
  return table;
}

export function lookupModel(state: ServerState, id: string): ServedModel {
  const model = state.models.get(id);
  if (!model) throw notFound(`The model '${id}' does not exist or you do not have access to it.`, 'model', Codes.modelNotFound);
  return model;
}

/** A local model, or a provider's (`<provider>/<model>`: its upstream may be asked for its list); never another than the one named. */
export async function resolveModel(state: ServerState, id: string): Promise<ServedModel> {
  return state.models.get(id) ?? (await state.providers?.resolve(id)) ?? lookupModel(state, id);
}
