/**
 * Remote providers: upstream OpenAI-compatible servers whose models this runtime serves
 * beside its own (see protocol/local-providers.ts for the API). The server keeps the
 * providers and their lines; two adapters meet it here:
 * - a ProviderStore keeps their settings (IndexedDB: store/idb-provider-store.ts);
 * - `ConnectProvider` makes the engine that speaks to one (engine/remote/).
 */
import type { Embedder } from './embedder';
import type { Engine, ModelInfo } from './engine';

export type ProviderApi = 'chat_completions' | 'responses';

/** A provider's settings as stored: its key only when it is kept in storage. */
export interface ProviderRecord {
  id: string;
  /** Normalized: no trailing slash, no query or fragment. */
  baseUrl: string;
  api: ProviderApi;
  /** The upstream model ids to serve; absent: its `GET /models`. */
  models?: string[];
  contextWindow?: number;
  concurrency: number;
  /** Present only when the key is kept in storage (`keyStorage: 'persistent'`). */
  apiKey?: string;
  /** Where its key is kept; null: no key. */
  keyStorage: 'persistent' | 'session' | null;
  /** Unix seconds. */
  createdAt: number;
}

/** Where provider settings are kept. Reads never throw for one bad row: it is skipped. */
export interface ProviderStore {
  list(): Promise<ProviderRecord[]>;
  put(record: ProviderRecord): Promise<void>;
  delete(id: string): Promise<boolean>;
  close(): void;
}

/** What an engine needs to reach its provider. */
export interface ProviderConnection {
  id: string;
  baseUrl: string;
  api: ProviderApi;
  apiKey?: string;
  /** Where the key is kept (its failure messages say to enter a session key again). */
  keyStorage: 'persistent' | 'session' | null;
  contextWindow?: number;
}

/** An upstream model as this runtime lists it: `info.id` is `<provider id>/<upstream id>`. */
export interface RemoteEngine extends Engine {
  /** Asks the upstream for its models (`GET /models`); rejects with an ApiError naming the provider. */
  listModels(signal: AbortSignal): Promise<ModelInfo[]>;
  /** The entry for an upstream model id it was not asked about (a provider's configured `models`). */
  modelInfo(upstreamId: string): ModelInfo;
  /**
   * The upstream model `upstreamId` as an embedder (its `POST /embeddings`), one per id. The
   * upstream's model list is not asked: it does not say which models embed, and a model it
   * does not serve is its 404, naming the provider.
   */
  embedder(upstreamId: string): Embedder;
}

export type ConnectProvider = (connection: ProviderConnection) => RemoteEngine;
