/**
 * `/v1/local/routes` (a local extension; shapes in protocol/local-routes.ts): routes — one
 * model name over a model of this device and a provider's — created or replaced with `POST`
 * (checked first: a bad one is a 400 naming the field, and nothing is stored), listed, read
 * and deleted.
 */
import { z } from 'zod';
import { RouteCreate, type RouteDeleted, type RouteList } from '../../protocol/local-routes';
import { ApiError } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import type { RouteTable } from '../state/route-table';
import type { ServerState } from '../state/server-state';
import { readBody } from './http/read-json';

function table(state: ServerState): RouteTable {
  if (!state.routes)
    throw new ApiError({ status: 404, type: 'invalid_request_error', code: Codes.unknownUrl, param: null, message: 'Routes are not available in this runtime (it has no remote providers).' });
  return state.routes;
}

// The mini schema inside a full one, so a bad body gets the same 400 as every other route.
const createSchema = z.strictObject(RouteCreate.shape);

export async function createRoute(state: ServerState, request: Request): Promise<Response> {
  const routes = table(state);
  const body: RouteCreate = await readBody(request, createSchema, false);
  return Response.json(await routes.put(body));
}

export function listRoutes(state: ServerState): Response {
  const body: RouteList = { object: 'list', data: table(state).list() };
  return Response.json(body);
}

export function retrieveRoute(state: ServerState, id: string): Response {
  return Response.json(table(state).get(id));
}

export async function deleteRoute(state: ServerState, id: string): Promise<Response> {
  await table(state).delete(id);
  const body: RouteDeleted = { id, object: 'local.route.deleted', deleted: true };
  return Response.json(body);
}
