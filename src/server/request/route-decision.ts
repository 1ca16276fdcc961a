/**
 * A route's decision, made anew for every request before anything runs: which of its two
 * models serves this one — the device's (`local`) or the provider's (`remote`).
 *
 * The device's model can take a request when it is on this device (a route never starts a
 * download), its engine supports what the request asks (tools for a model without tool
 * calling; images for a model that does not see; grammars, logprobs — the same checks that
 * would refuse the request sent to that model by name), and its context window holds the
 * rendered input plus `max_output_tokens`. The provider can take it when it answers
 * (`ProviderRegistry.reach`: it answered a moment ago, or to a model-list read now).
 *
 * - `prefer: "local"`: the device when it can take the request, else the provider; neither:
 *   an error naming both and why.
 * - `prefer: "remote"`: the provider when it answers; when it cannot be reached, the device
 *   if it can take the request; neither: an error naming both and why.
 *
 * The request is then prepared for that model by name, so `response.model` — in
 * `response.created` already — names the model that serves it. State is local either way: a
 * chain or conversation may cross sides from turn to turn, the provider getting the whole
 * history in its request.
 */
import type { RouteRecord } from '../../ports/routes';
import type { CreateResponseRequest } from '../../protocol/create-request';
import { ApiError, describeError } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { unreachable } from '../state/provider-registry';
import type { ServerState } from '../state/server-state';
import type { PreparedRequest } from './prepare-request';

/** Prepares the request for one model by id (everything `POST /v1/responses` checks and renders). */
export type PrepareFor = (model: string) => Promise<PreparedRequest>;

type LocalTry = { prepared: PreparedRequest } | { reason: string };

/** The request prepared for the model of `route` that serves it. */
export async function prepareOnRoute(state: ServerState, route: RouteRecord, request: CreateResponseRequest, prepareFor: PrepareFor): Promise<PreparedRequest> {
  if (route.prefer === 'local') {
    const local = await tryLocal(state, route, request, prepareFor);
    if ('prepared' in local) return local.prepared;
    try {
      await reachRemote(state, route);
    } catch (err) {
      throw unreachableBoth(route, local.reason, err);
    }
    return prepareFor(route.remote);
  }
  try {
    await reachRemote(state, route);
  } catch (err) {
    if (!cannotReach(err)) throw err;
    const local = await tryLocal(state, route, request, prepareFor);
    if ('prepared' in local) return local.prepared;
    throw unreachableBoth(route, local.reason, err);
  }
  return prepareFor(route.remote);
}

/**
 * The model a route's compaction (`POST /v1/responses/compact`) is written by: the preferred
 * side when it is available (the device's model on the device, the provider answering), else
 * the other. A summary has no tools or images to weigh; its window is the model's own check.
 */
export async function compactionModel(state: ServerState, id: string): Promise<string> {
  const route = state.models.has(id) ? undefined : state.routes?.find(id);
  if (!route) return id;
  const onDevice = state.models.has(route.local) && ((await state.modelManager?.onDevice?.(route.local)) ?? true);
  if (route.prefer === 'local' && onDevice) return route.local;
  try {
    await reachRemote(state, route);
    return route.remote;
  } catch (err) {
    if (onDevice && cannotReach(err)) return route.local;
    // Not on the device (or the provider refused, which is passed on as it is).
    throw unreachableBoth(route, `'${route.local}' is not downloaded on this device`, err);
  }
}

/** The request prepared for the device's model, or why that model cannot take it. */
async function tryLocal(state: ServerState, route: RouteRecord, request: CreateResponseRequest, prepareFor: PrepareFor): Promise<LocalTry> {
  const model = state.models.get(route.local);
  if (!model) return { reason: `'${route.local}' is not a model of this runtime any more` };
  if (!((await state.modelManager?.onDevice?.(route.local)) ?? true))
    return { reason: `'${route.local}' is not downloaded on this device (a route never starts a download: load it in the app, or with POST /v1/local/models/${route.local}/load)` };
  if ((request.tools?.length ?? 0) > 0 && model.info.capabilities?.tools === false) return { reason: `'${route.local}' cannot call tools` };
  let prepared: PreparedRequest;
  try {
    prepared = await prepareFor(route.local);
  } catch (err) {
    // What the device's model refuses (images, grammars, logprobs, …) the provider may take;
    // anything else (an unknown previous_response_id) is the request's own error.
    if (err instanceof ApiError && err.data.status === 400) return { reason: err.message };
    throw err;
  }
  const window = model.info.context_window;
  const wanted = prepared.untruncatedTokens + (request.max_output_tokens ?? 0);
  if (wanted > window)
    return {
      reason: `its context window of ${window} tokens does not hold the input (${prepared.untruncatedTokens} tokens)${request.max_output_tokens ? ` plus max_output_tokens (${request.max_output_tokens})` : ''}`,
    };
  return { prepared };
}

/** Resolves once the route's provider answers; rejects with why not. */
async function reachRemote(state: ServerState, route: RouteRecord): Promise<void> {
  const slash = route.remote.indexOf('/');
  const provider = route.remote.slice(0, Math.max(slash, 0));
  if (!state.providers?.has(provider)) throw new ProviderGone(provider);
  await state.providers.reach(route.remote);
}

/** The route's provider was deleted after the route was made. */
class ProviderGone extends Error {
  constructor(provider: string) {
    super(`there is no provider '${provider}' any more (add it again in Settings → Providers, or point the route at another)`);
  }
}

/** Whether `err` says the provider cannot be reached (down, offline, silent, refusing this origin, or gone) rather than refusing the request. */
function cannotReach(err: unknown): boolean {
  return err instanceof ProviderGone || unreachable(err);
}

/** Neither side can take it: both named, and why. A refusal by the provider itself (a bad key, an unknown model) is passed on as it is. */
function unreachableBoth(route: RouteRecord, localReason: string, err: unknown): Error {
  if (!cannotReach(err)) return err instanceof Error ? err : new Error(String(err));
  const why = err instanceof ProviderGone ? err.message : err instanceof ApiError ? err.message : `it did not answer in time (${describeError(err)})`;
  return new ApiError(
    {
      status: 503,
      type: 'server_error',
      code: Codes.routeUnavailable,
      param: 'model',
      message: `The route '${route.id}' cannot answer this request: this device's model '${route.local}' cannot take it (${localReason}), and the provider's model '${route.remote}' cannot be reached (${why}).`,
    },
    { cause: err },
  );
}
