/**
 * The app's side of `/v1/local/routes` (a model of this device, then a provider's, under one
 * name; shapes in protocol/local-routes.ts), answers checked against the same schemas the
 * server uses. Failures carry the runtime's words (which field, and why) as ProviderApiError.
 */
import type { core, ZodMiniType } from 'zod/mini';
import { ErrorBody } from '../protocol/error-response';
import { RouteList, RouteObject, type RouteCreate } from '../protocol/local-routes';
import { ProviderApiError } from './providers-api';

export type { RouteCreate, RouteObject };

export interface RoutesApi {
  list(): Promise<RouteObject[]>;
  save(body: RouteCreate): Promise<RouteObject>;
  remove(id: string): Promise<void>;
}

async function answer<T>(response: Response, schema: ZodMiniType<T>): Promise<T> {
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = ErrorBody.safeParse(body);
    throw error.success ? new ProviderApiError(response.status, error.data.error.message, error.data.error.param ?? null) : new ProviderApiError(response.status, `${response.status} ${response.statusText}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ProviderApiError(500, `The runtime's answer about routes is not what this app understands (${(parsed.error as core.$ZodError).issues[0]?.path.join('.') ?? 'body'}). Reload the page.`);
  return parsed.data;
}

export function createRoutesApi(fetchFn: typeof fetch, base: string): RoutesApi {
  const url = (path = '') => `${base}/local/routes${path}`;
  return {
    // A runtime without providers has no routes: an empty list, not an error.
    list: async () => {
      const response = await fetchFn(url());
      return response.status === 404 ? [] : (await answer(response, RouteList)).data;
    },
    save: async (body) => answer(await fetchFn(url(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), RouteObject),
    remove: async (id) => {
      const response = await fetchFn(url(`/${encodeURIComponent(id)}`), { method: 'DELETE' });
      if (!response.ok) await answer(response, RouteObject);
    },
  };
}
