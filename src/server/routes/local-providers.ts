/**
 * `/v1/local/providers` (a local extension; shapes in protocol/local-providers.ts): remote
 * providers, created or replaced with `POST`, listed, read and deleted; `GET
 * /v1/local/providers/{id}/models` asks the upstream for its models now (the app's "Test
 * connection"), answering its failure — unreachable or refused by CORS, a refused key — as
 * an error that names the provider. Answers never contain a key.
 */
import { z } from 'zod';
import { ProviderCreate, type ProviderDeleted, type ProviderList, type ProviderModelList } from '../../protocol/local-providers';
import { ApiError } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import type { ProviderRegistry } from '../state/provider-registry';
import type { ServerState } from '../state/server-state';
import { readBody } from './http/read-json';

function registry(state: ServerState): ProviderRegistry {
  if (!state.providers)
    throw new ApiError({ status: 404, type: 'invalid_request_error', code: Codes.unknownUrl, param: null, message: 'Remote providers are not available in this runtime.' });
  return state.providers;
}

// The mini schema inside a full one, so a bad body gets the same 400 as every other route.
const createSchema = z.strictObject(ProviderCreate.shape);

export async function createProvider(state: ServerState, request: Request): Promise<Response> {
  const providers = registry(state);
  const body: ProviderCreate = await readBody(request, createSchema, false);
  return Response.json(await providers.put(body));
}

export function listProviders(state: ServerState): Response {
  const body: ProviderList = { object: 'list', data: registry(state).list() };
  return Response.json(body);
}

export function retrieveProvider(state: ServerState, id: string): Response {
  return Response.json(registry(state).get(id));
}

export async function deleteProvider(state: ServerState, id: string): Promise<Response> {
  await registry(state).delete(id);
  const body: ProviderDeleted = { id, object: 'local.provider.deleted', deleted: true };
  return Response.json(body);
}

export async function listProviderModels(state: ServerState, id: string, signal: AbortSignal): Promise<Response> {
  const models = await registry(state).models(id, AbortSignal.any([signal, AbortSignal.timeout(15_000)]));
  const body: ProviderModelList = { object: 'list', data: models.map((m) => ({ id: m.id, object: 'model', owned_by: m.owned_by, context_window: m.context_window })) };
  return Response.json(body);
}
