/**
 * The providers this runtime serves models of: their settings (stored ones from the
 * ProviderStore, `startup` ones given in code and held in memory), keys kept for the session
 * in memory only, an engine and a line of their own for each (`concurrency` responses at
 * once, beside the local engine's line), and the upstream's model list, asked for when a
 * request names a model it has not seen and refreshed for `/v1/models` at most once a minute.
 *
 * Settings come only from trusted code: the `/v1/local/providers` routes (this origin's
 * pages: the service worker refuses every other), and the runtime's start options.
 */
import type { ChatFormat } from '../../chat/chat-format';
import { qwenFormat } from '../../chat/qwen-format';
import type { Embedder } from '../../ports/embedder';
import type { ModelInfo } from '../../ports/engine';
import type { ConnectProvider, ProviderRecord, ProviderStore, RemoteEngine } from '../../ports/providers';
import { DEFAULT_PROVIDER_CONCURRENCY, ProviderCreate, type ProviderObject } from '../../protocol/local-providers';
import type { ProviderOptions } from '../../protocol/runtime-options';
import { ApiError, describeError, invalidRequest, notFound } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { privateHost } from '../../shared/private-host';
import { EngineQueue } from './engine-queue';

export interface ProvidersOptions {
  /** Where settings made through `/v1/local/providers` are kept (IndexedDB); default: memory. */
  store?: ProviderStore;
  /** Makes a provider's engine (engine/remote/). */
  connect: ConnectProvider;
  /** Providers given in code (`startLocalRuntime({ providers })`), held in memory. */
  initial?: ProviderOptions[];
  /** This app's origin: never a provider (its `/v1` is this runtime). */
  appOrigin: string;
  /** A route's decision takes a provider that answered this recently (ms) as up without asking again; default 2000. */
  reachFreshMs?: number;
}

/** What the server runs a remote model with (the fields of a ServedModel). */
export interface RemoteModel {
  info: ModelInfo;
  engine: RemoteEngine;
  /** Renders the conversation for the prompt estimate (tools described, as the upstream's template will). */
  format: ChatFormat;
  queue: EngineQueue;
}

interface Entry {
  record: ProviderRecord;
  /** A key kept in memory only: `keyStorage: 'session'`, or a startup provider's. */
  memoryKey?: string;
  source: 'settings' | 'startup';
  engine: RemoteEngine;
  queue: EngineQueue;
  /** The upstream's list as last read (ms), and a read under way. */
  listed?: { at: number; models: ModelInfo[] };
  listing?: Promise<ModelInfo[]>;
  /** When a read last failed (ms): `/v1/models` does not wait for that provider again within the minute. */
  failedAt?: number;
  /** When a read last succeeded (ms): a route's decision takes the provider as up for a moment after. */
  answeredAt?: number;
}

/** `/v1/models` re-reads a provider's list at most this often. */
const LIST_TTL_MS = 60_000;
/** `/v1/models` waits this long for a provider's list, then shows what it knew. */
const LIST_WAIT_MS = 3_000;
/** A request naming a model not seen yet waits this long for the upstream's list. */
const RESOLVE_WAIT_MS = 15_000;
/** A route's decision takes a provider that answered this recently as up, without asking again (a burst of turns asks once). */
const REACH_FRESH_MS = 2_000;
/** A route's decision waits this long for a provider to answer, then takes it as down. */
const REACH_WAIT_MS = 5_000;

/** A base URL as stored: absolute, `https:` (or `http:` to a loopback/private host), no credentials, query or fragment, no trailing slash. */
export function normalizeBaseUrl(raw: string, appOrigin: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidRequest(`'${raw.slice(0, 200)}' is not an absolute URL. Give the provider's base URL, e.g. http://127.0.0.1:8080/v1.`, 'base_url', Codes.invalidProvider);
  }
  const refuse = (why: string) => invalidRequest(`The base_url ${url.origin}${url.pathname} cannot be used: ${why}`, 'base_url', Codes.invalidProvider);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('only https: (or http: on this machine or a private network) is spoken to.');
  if (url.username || url.password) throw refuse('credentials in the URL would be sent along; give the key as api_key instead.');
  if (url.search || url.hash) throw refuse('a query or fragment is not allowed (a key there would be sent with every request); give the key as api_key.');
  if (url.protocol === 'http:' && privateHost(url.hostname) === null) throw refuse('plain http: is allowed only for loopback and private-network addresses; use https: for a server on the internet.');
  if (url.origin === new URL(appOrigin).origin) throw refuse('it is this app’s own origin, whose /v1 is this runtime.');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Whether `err` says a provider cannot be reached (down, offline, silent, failing with 5xx, refusing this origin) rather than refusing a request. */
export function unreachable(err: unknown): boolean {
  if (err instanceof ApiError) return err.data.code === Codes.providerUnreachable || err.data.code === Codes.providerStreamFailed || err.data.status >= 500;
  return err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
}

export class ProviderRegistry {
  private readonly entries = new Map<string, Entry>();

  private constructor(
    private readonly store: ProviderStore | null,
    private readonly connect: ConnectProvider,
    private readonly appOrigin: string,
    private readonly now: () => number,
    private readonly reachFreshMs: number,
  ) {}

  /** Loads the stored providers (a store that cannot be read is logged: the runtime starts anyway) and adds the startup ones. */
  static async open(options: ProvidersOptions, now: () => number): Promise<ProviderRegistry> {
    const registry = new ProviderRegistry(options.store ?? null, options.connect, options.appOrigin, now, options.reachFreshMs ?? REACH_FRESH_MS);
    const stored = await (options.store?.list() ?? Promise.resolve([])).catch((err: unknown) => {
      console.error(`Could not read the stored providers: ${describeError(err)}`);
      return [];
    });
    for (const record of stored) registry.add(record, 'settings');
    for (const given of options.initial ?? []) {
      try {
        // Checked as a request's body is: code may pass anything at all.
        const body = ProviderCreate.parse({
          id: given.id,
          base_url: given.baseUrl,
          ...(given.api !== undefined ? { api: given.api } : {}),
          ...(given.apiKey !== undefined ? { api_key: given.apiKey } : {}),
          ...(given.models !== undefined ? { models: given.models } : {}),
          ...(given.contextWindow !== undefined ? { context_window: given.contextWindow } : {}),
          ...(given.concurrency !== undefined ? { concurrency: given.concurrency } : {}),
        });
        const { record, key } = registry.recordOf(body, body.api_key, 'session');
        registry.add(record, 'startup', key);
      } catch (err) {
        console.error(`Provider '${given.id}' given at start is not usable: ${describeError(err)}`);
      }
    }
    return registry;
  }

  /** By id. */
  list(): ProviderObject[] {
    return [...this.entries.values()].sort((a, b) => (a.record.id < b.record.id ? -1 : 1)).map((e) => this.view(e));
  }

  get(id: string): ProviderObject {
    return this.view(this.entry(id));
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Creates or replaces a provider; a stored one is written before it is used. */
  async put(body: ProviderCreate): Promise<ProviderObject> {
    if (this.entries.get(body.id)?.source === 'startup')
      throw invalidRequest(`Provider '${body.id}' was given to the runtime in code at start; it cannot be replaced here (delete it first, or choose another id).`, 'id', Codes.invalidProvider);
    const { record, key } = this.recordOf(body, body.api_key, body.key_storage ?? 'persistent');
    if (record.keyStorage === 'persistent' && key !== undefined) record.apiKey = key;
    if (this.store) await this.store.put(record);
    return this.view(this.add(record, 'settings', record.keyStorage === 'session' ? key : undefined));
  }

  async delete(id: string): Promise<void> {
    const entry = this.entry(id);
    if (entry.source === 'settings' && this.store) await this.store.delete(id);
    this.entries.delete(id);
  }

  /** The upstream's models now (Test connection): rejects with what went wrong, naming the provider. */
  async models(id: string, signal?: AbortSignal): Promise<ModelInfo[]> {
    return this.read(this.entry(id), signal);
  }

  /** Every provider's models for `/v1/models`: lists older than a minute are read again, briefly; a provider that does not answer shows what it last did. */
  async allModels(): Promise<RemoteModel[]> {
    const entries = [...this.entries.values()];
    await Promise.all(
      entries.map(async (entry) => {
        const fresh = (at: number | undefined) => at !== undefined && this.now() * 1000 - at < LIST_TTL_MS;
        if (entry.record.models || fresh(entry.listed?.at) || fresh(entry.failedAt)) return;
        await this.read(entry, AbortSignal.timeout(LIST_WAIT_MS)).catch(() => undefined);
      }),
    );
    return entries.flatMap((entry) => this.known(entry).map((info) => this.served(entry, info)));
  }

  /**
   * The remote model `id` names (`<provider>/<upstream id>`), or undefined when it names no
   * provider. A model the provider does not serve is a 404; a provider that cannot say
   * (unreachable, refused) fails with why — no other model is ever used instead.
   */
  async resolve(id: string): Promise<RemoteModel | undefined> {
    const slash = id.indexOf('/');
    if (slash <= 0) return undefined;
    const entry = this.entries.get(id.slice(0, slash));
    if (!entry) return undefined;
    let info = this.known(entry).find((m) => m.id === id);
    if (!info && !entry.record.models) info = (await this.read(entry, AbortSignal.timeout(RESOLVE_WAIT_MS))).find((m) => m.id === id);
    if (!info) {
      const served = this.known(entry).map((m) => m.id.slice(slash + 1));
      throw notFound(
        `The model '${id}' does not exist: provider '${entry.record.id}' serves ${served.length ? served.map((m) => `'${m}'`).join(', ') : 'no models'}.`,
        'model',
        Codes.modelNotFound,
      );
    }
    return this.served(entry, info);
  }

  /**
   * The remote model `id` names, once its provider has answered — within the last
   * `reachFreshMs`, or to a read of its model list now (REACH_WAIT_MS at most). What a
   * route's decision asks before it sends a request there: rejects with why the provider
   * cannot be reached, or with the 404 of a model it does not serve.
   */
  async reach(id: string): Promise<RemoteModel> {
    const slash = id.indexOf('/');
    const entry = slash > 0 ? this.entries.get(id.slice(0, slash)) : undefined;
    if (!entry) throw notFound(`There is no provider '${id.slice(0, Math.max(slash, 0))}' for the model '${id}'.`, 'model', Codes.modelNotFound);
    if (entry.answeredAt === undefined || Date.now() - entry.answeredAt >= this.reachFreshMs)
      await this.read(entry, AbortSignal.timeout(REACH_WAIT_MS)).catch((err: unknown) => {
        // A server that answers with an error of its own (no `GET /models`, a refused key) is
        // up: its refusal, if any, comes with the request itself.
        if (unreachable(err)) throw err;
        entry.answeredAt = Date.now();
      });
    return (await this.resolve(id))!;
  }

  /**
   * The provider's model `id` (`<provider>/<upstream id>`) as an embedder, or undefined when
   * it names no provider. Not checked against the upstream's list (which does not say what
   * embeds): the upstream's 404 names a model it does not serve.
   */
  embedder(id: string): Embedder | undefined {
    const slash = id.indexOf('/');
    if (slash <= 0 || slash === id.length - 1) return undefined;
    return this.entries.get(id.slice(0, slash))?.engine.embedder(id.slice(slash + 1));
  }

  private served(entry: Entry, info: ModelInfo): RemoteModel {
    return { info, engine: entry.engine, format: qwenFormat, queue: entry.queue };
  }

  /** The models known without asking: the configured list, else the last one read. */
  private known(entry: Entry): ModelInfo[] {
    if (entry.record.models) return entry.record.models.map((m) => entry.engine.modelInfo(m));
    return entry.listed?.models ?? [];
  }

  private read(entry: Entry, signal?: AbortSignal): Promise<ModelInfo[]> {
    entry.listing ??= entry.engine
      .listModels(signal ?? AbortSignal.timeout(RESOLVE_WAIT_MS))
      .then(
        (models) => {
          entry.listed = { at: this.now() * 1000, models };
          entry.answeredAt = Date.now();
          delete entry.failedAt;
          return models;
        },
        (err: unknown) => {
          entry.failedAt = this.now() * 1000;
          throw err;
        },
      )
      .finally(() => (entry.listing = undefined));
    return entry.listing;
  }

  private entry(id: string): Entry {
    const entry = this.entries.get(id);
    if (!entry) throw notFound(`No provider with id '${id}'.`, 'id', null);
    return entry;
  }

  private recordOf(body: ProviderCreate, key: string | undefined, keyStorage: 'persistent' | 'session'): { record: ProviderRecord; key: string | undefined } {
    const record: ProviderRecord = {
      id: body.id,
      baseUrl: normalizeBaseUrl(body.base_url, this.appOrigin),
      api: body.api ?? 'chat_completions',
      ...(body.models ? { models: [...new Set(body.models)] } : {}),
      ...(body.context_window ? { contextWindow: body.context_window } : {}),
      concurrency: body.concurrency ?? DEFAULT_PROVIDER_CONCURRENCY,
      keyStorage: key !== undefined ? keyStorage : null,
      createdAt: this.now(),
    };
    return { record, key };
  }

  private add(record: ProviderRecord, source: Entry['source'], memoryKey?: string): Entry {
    const apiKey = record.apiKey ?? memoryKey;
    const engine = this.connect({ id: record.id, baseUrl: record.baseUrl, api: record.api, keyStorage: record.keyStorage, ...(apiKey ? { apiKey } : {}), ...(record.contextWindow ? { contextWindow: record.contextWindow } : {}) });
    // A replaced provider gets a new line: responses already running on the old one finish there.
    const entry: Entry = { record, source, engine, queue: new EngineQueue(record.concurrency), ...(memoryKey ? { memoryKey } : {}) };
    this.entries.set(record.id, entry);
    return entry;
  }

  private view(entry: Entry): ProviderObject {
    const { record } = entry;
    const key = record.apiKey ?? entry.memoryKey;
    return {
      object: 'local.provider',
      id: record.id,
      base_url: record.baseUrl,
      api: record.api,
      models: record.models ? [...record.models] : null,
      context_window: record.contextWindow ?? null,
      concurrency: record.concurrency,
      has_api_key: key !== undefined,
      // Only a long key shows its tail: four characters of a short one would be most of it.
      api_key_last4: key !== undefined && key.length >= 12 ? key.slice(-4) : null,
      key_storage: record.keyStorage,
      source: entry.source,
      created_at: record.createdAt,
    };
  }
}
