/**
 * The app's side of `/v1/local/providers` (remote providers; shapes in
 * protocol/local-providers.ts), answers checked against the same schemas the server uses.
 */
import type { core, ZodMiniType } from 'zod/mini';
import { ErrorBody } from '../protocol/error-response';
import { ProviderList, ProviderModelList, ProviderObject, type ProviderCreate } from '../protocol/local-providers';

export type { ProviderCreate, ProviderObject };
export type ProviderModel = ProviderModelList['data'][number];

/** A failure as the runtime worded it (it names the provider and what to do). */
export class ProviderApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

export interface ProvidersApi {
  list(): Promise<ProviderObject[]>;
  get(id: string): Promise<ProviderObject>;
  save(body: ProviderCreate): Promise<ProviderObject>;
  remove(id: string): Promise<void>;
  /** Asks the upstream for its models now ("Test connection"). */
  test(id: string, signal?: AbortSignal): Promise<ProviderModel[]>;
}

/**
 * A `/v1/local/*` answer read against `schema`; a refusal carries the runtime's words, and an
 * answer of another shape says so (`what`: "providers", "routes").
 */
export async function localAnswer<T>(response: Response, schema: ZodMiniType<T>, what: string): Promise<T> {
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = ErrorBody.safeParse(body);
    throw error.success ? new ProviderApiError(response.status, error.data.error.message, error.data.error.param ?? null) : new ProviderApiError(response.status, `${response.status} ${response.statusText}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ProviderApiError(500, `The runtime's answer about ${what} is not what this app understands (${(parsed.error as core.$ZodError).issues[0]?.path.join('.') ?? 'body'}). Reload the page.`);
  return parsed.data;
}

const answer = <T>(response: Response, schema: ZodMiniType<T>) => localAnswer(response, schema, 'providers');

export function createProvidersApi(fetchFn: typeof fetch, base: string): ProvidersApi {
  const url = (path = '') => `${base}/local/providers${path}`;
  return {
    list: async () => (await answer(await fetchFn(url()), ProviderList)).data,
    get: async (id) => answer(await fetchFn(url(`/${encodeURIComponent(id)}`)), ProviderObject),
    save: async (body) => answer(await fetchFn(url(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), ProviderObject),
    remove: async (id) => {
      const response = await fetchFn(url(`/${encodeURIComponent(id)}`), { method: 'DELETE' });
      if (!response.ok) await answer(response, ProviderObject);
    },
    test: async (id, signal) => (await answer(await fetchFn(url(`/${encodeURIComponent(id)}/models`), signal ? { signal } : {}), ProviderModelList)).data,
  };
}
