/**
 * The routes this runtime serves (protocol/local-routes.ts): stored ones from the RouteStore,
 * `startup` ones given in code and held in memory. A route is checked when it is made — its
 * `local` a model of this device, its `remote` a model of a provider that exists, its `id` no
 * model's — and nothing is stored when it fails. A stored route whose provider was deleted
 * since is kept (the provider may come back); a request then finds its remote side gone and
 * says so.
 *
 * Settings come only from trusted code: the `/v1/local/routes` routes (this origin's pages:
 * the service worker refuses every other), and the runtime's start options.
 */
import type { RouteRecord, RouteStore } from '../../ports/routes';
import { RouteCreate, type RouteObject } from '../../protocol/local-routes';
import type { RouteOptions } from '../../protocol/runtime-options';
import { describeError, invalidRequest, notFound } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import type { ProviderRegistry } from './provider-registry';

export interface RoutesOptions {
  /** Where routes made through `/v1/local/routes` are kept (IndexedDB); default: memory. */
  store?: RouteStore;
  /** Routes given in code (`startLocalRuntime({ routes })`), held in memory. */
  initial?: RouteOptions[];
}

/** What a new route is checked against: the models of this device and the providers. */
export interface RouteChecks {
  /** A model this device serves (a chat model of the local table). */
  isLocalModel(id: string): boolean;
  /** Any id `/v1/models` lists that is not a route's (chat or embedding model). */
  isModelId(id: string): boolean;
  providers: ProviderRegistry | undefined;
}

interface Entry {
  record: RouteRecord;
  source: 'settings' | 'startup';
}

export class RouteTable {
  private readonly entries = new Map<string, Entry>();

  private constructor(
    private readonly store: RouteStore | null,
    private readonly checks: RouteChecks,
    private readonly now: () => number,
  ) {}

  /** Loads the stored routes (a store that cannot be read is logged: the runtime starts anyway) and adds the startup ones, checked. */
  static async open(options: RoutesOptions, checks: RouteChecks, now: () => number): Promise<RouteTable> {
    const table = new RouteTable(options.store ?? null, checks, now);
    const stored = await (options.store?.list() ?? Promise.resolve([])).catch((err: unknown) => {
      console.error(`Could not read the stored routes: ${describeError(err)}`);
      return [];
    });
    for (const record of stored) table.entries.set(record.id, { record, source: 'settings' });
    for (const given of options.initial ?? []) {
      try {
        // Checked as a request's body is: code may pass anything at all.
        const body = RouteCreate.parse({ id: given.id, local: given.local, remote: given.remote, ...(given.prefer !== undefined ? { prefer: given.prefer } : {}) });
        table.entries.set(body.id, { record: table.check(body), source: 'startup' });
      } catch (err) {
        console.error(`Route '${String(given?.id)}' given at start is not usable: ${describeError(err)}`);
      }
    }
    return table;
  }

  /** The route `id` names, if any (a request's `model`). */
  find(id: string): RouteRecord | undefined {
    return this.entries.get(id)?.record;
  }

  /** By id. */
  list(): RouteObject[] {
    return [...this.entries.values()].sort((a, b) => (a.record.id < b.record.id ? -1 : 1)).map(view);
  }

  get(id: string): RouteObject {
    return view(this.entry(id));
  }

  /** Creates or replaces a route, checked first; a stored one is written before it is used. */
  async put(body: RouteCreate): Promise<RouteObject> {
    if (this.entries.get(body.id)?.source === 'startup')
      throw invalidRequest(`Route '${body.id}' was given to the runtime in code at start; it cannot be replaced here (delete it first, or choose another id).`, 'id', Codes.invalidRoute);
    const record = this.check(body);
    if (this.store) await this.store.put(record);
    const entry: Entry = { record, source: 'settings' };
    this.entries.set(record.id, entry);
    return view(entry);
  }

  async delete(id: string): Promise<void> {
    const entry = this.entry(id);
    if (entry.source === 'settings' && this.store) await this.store.delete(id);
    this.entries.delete(id);
  }

  private entry(id: string): Entry {
    const entry = this.entries.get(id);
    if (!entry) throw notFound(`No route with id '${id}'.`, 'id', null);
    return entry;
  }

  /** The record of a valid body; a 400 naming the field otherwise. */
  private check(body: RouteCreate): RouteRecord {
    const refuse = (param: string, why: string) => invalidRequest(`The route '${body.id}' cannot be used: ${why}`, param, Codes.invalidRoute);
    const { providers } = this.checks;
    if (this.checks.isModelId(body.id)) throw refuse('id', `'${body.id}' is already a model's id; a route needs a name of its own.`);
    const localProvider = providerOf(body.local);
    if (localProvider !== null && providers?.has(localProvider))
      throw refuse('local', `'${body.local}' is a model of provider '${localProvider}', not of this device; give it as 'remote', and a model GET /v1/models lists without a provider prefix as 'local'.`);
    if (!this.checks.isLocalModel(body.local)) throw refuse('local', `'${body.local}' is not a model of this device (GET /v1/models lists them).`);
    const remoteProvider = providerOf(body.remote);
    if (remoteProvider === null) throw refuse('remote', `'${body.remote}' is not a provider's model: give it as '<provider id>/<model id>', as GET /v1/models lists it.`);
    if (!providers?.has(remoteProvider)) throw refuse('remote', `there is no provider '${remoteProvider}' (add it with POST /v1/local/providers first).`);
    const configured = providers.get(remoteProvider).models;
    const upstreamId = body.remote.slice(remoteProvider.length + 1);
    if (configured && !configured.includes(upstreamId))
      throw refuse('remote', `provider '${remoteProvider}' serves ${configured.map((m) => `'${m}'`).join(', ')}, not '${upstreamId}'.`);
    return { id: body.id, local: body.local, remote: body.remote, prefer: body.prefer ?? 'local', createdAt: this.now() };
  }
}

/** The provider prefix of `<provider>/<model>`, or null. */
function providerOf(model: string): string | null {
  const slash = model.indexOf('/');
  return slash > 0 && slash < model.length - 1 ? model.slice(0, slash) : null;
}

function view(entry: Entry): RouteObject {
  const { record } = entry;
  return { object: 'local.route', id: record.id, local: record.local, remote: record.remote, prefer: record.prefer, source: entry.source, created_at: record.createdAt };
}
