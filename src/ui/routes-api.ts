/**
 * The app's side of `/v1/local/routes` (a model of this device, then a provider's, under one
 * name; shapes in protocol/local-routes.ts), answers checked against the same schemas the
 * server uses. Failures carry the runtime's words (which field, and why) as ProviderApiError.
 */
import type { ZodMiniType } from 'zod/mini';
import { RouteList, RouteObject, type RouteCreate } from '../protocol/local-routes';
import { localAnswer } from './providers-api';

export type { RouteCreate, RouteObject };

export interface RoutesApi {
  list(): Promise<RouteObject[]>;
  save(body: RouteCreate): Promise<RouteObject>;
  remove(id: string): Promise<void>;
}

const answer = <T>(response: Response, schema: ZodMiniType<T>) => localAnswer(response, schema, 'routes');

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
