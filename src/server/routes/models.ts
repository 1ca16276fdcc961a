/**
 * `GET /v1/models` and `GET /v1/models/{id}` in OpenAI's list shape, plus what a local UI
 * needs (read from the engine's ModelInfo; sizes are those of the build this device loads).
 */
import { notFound } from '../../shared/api-error';
import type { ServedModel, ServerState } from '../state/server-state';
import { Codes } from '../../shared/error-codes';
import type { Embedder } from '../../ports/embedder';
import type { RouteObject } from '../../protocol/local-routes';

function modelObject(model: ServedModel, state: ServerState) {
  const { info, engine } = model;
  return {
    id: info.id,
    object: 'model' as const,
    created: info.created,
    owned_by: info.owned_by,
    engine: engine.name,
    context_window: info.context_window,
    hidden: info.hidden ?? false,
    chat_format: info.chat_format,
    ...(info.label !== undefined && { label: info.label }),
    ...(info.download_bytes !== undefined && { download_bytes: info.download_bytes }),
    ...(info.vram_bytes !== undefined && { vram_bytes: info.vram_bytes }),
    ...(info.capabilities !== undefined && { capabilities: { ...info.capabilities } }),
    // What the model reads: `image` for models that see `input_image` parts (others refuse them with a 400).
    input_modalities: info.input_modalities ?? ['text'],
    // Served by the engine that suits this device (web-llm with usable WebGPU, wllama otherwise).
    recommended: state.preferredEngine !== undefined && engine.name === state.preferredEngine,
  };
}

/** An embedding model (`POST /v1/embeddings`, file search): `type: "embedding"` and its `dimensions`. */
function embedderObject(embedder: Embedder, state: ServerState) {
  const { info } = embedder;
  return {
    id: info.id,
    object: 'model' as const,
    created: info.created,
    owned_by: info.owned_by,
    engine: info.engine,
    type: 'embedding' as const,
    dimensions: info.dimensions,
    max_input_tokens: info.max_input_tokens,
    hidden: info.hidden ?? false,
    ...(info.label !== undefined && { label: info.label }),
    ...(info.download_bytes !== undefined && { download_bytes: info.download_bytes }),
    recommended: state.preferredEngine !== undefined && info.engine === state.preferredEngine,
  };
}

/**
 * A route (`engine: "route"`, its sides in `route`): a chat model like the others to a
 * client; its context window and what it reads are its device model's, as the request
 * that fits the device stays there.
 */
function routeObject(route: RouteObject, state: ServerState) {
  const local = state.models.get(route.local)?.info;
  const provider = route.remote.slice(0, route.remote.indexOf('/'));
  return {
    id: route.id,
    object: 'model' as const,
    created: route.created_at,
    owned_by: 'route',
    engine: 'route',
    type: 'chat' as const,
    context_window: local?.context_window ?? 0,
    hidden: false,
    chat_format: 'route',
    label: route.prefer === 'local' ? `Auto — this device, then ${provider}` : `Auto — ${provider}, then this device`,
    input_modalities: local?.input_modalities ?? ['text'],
    recommended: false,
    route: { local: route.local, remote: route.remote, prefer: route.prefer },
  };
}

/** Local chat models, each provider's (`<provider id>/<upstream id>`, `owned_by` the provider), the routes, then the embedding models. */
export async function listModels(state: ServerState): Promise<Response> {
  const remote = (await state.providers?.allModels()) ?? [];
  const chat = [...state.models.values(), ...remote].map((model) => ({ ...modelObject(model, state), type: 'chat' as const }));
  const routes = (state.routes?.list() ?? []).map((route) => routeObject(route, state));
  return Response.json({ object: 'list', data: [...chat, ...routes, ...[...state.embedders.values()].map((e) => embedderObject(e, state))] });
}

export async function retrieveModel(state: ServerState, id: string): Promise<Response> {
  const route = state.models.has(id) ? undefined : state.routes?.find(id);
  if (route) return Response.json(routeObject(state.routes!.get(id), state));
  const model = state.models.get(id) ?? (state.embedders.has(id) ? undefined : await state.providers?.resolve(id));
  if (model) return Response.json({ ...modelObject(model, state), type: 'chat' as const });
  const embedder = state.embedders.get(id);
  if (embedder) return Response.json(embedderObject(embedder, state));
  throw notFound(`The model '${id}' does not exist or you do not have access to it.`, 'model', Codes.modelNotFound);
}
