/** `GET /v1/models` and `GET /v1/models/{id}` in OpenAI's list shape, plus what a local UI needs. */
import { notFound } from '../../shared/api-error';
import type { ServedModel, ServerState } from '../server-state';

function modelObject(model: ServedModel) {
  const { info, engine } = model;
  return {
    id: info.id,
    object: 'model' as const,
    created: info.created,
    owned_by: info.owned_by,
    engine: engine.name,
    context_window: info.context_window,
    hidden: info.hidden ?? false,
  };
}

export function listModels(state: ServerState): Response {
  return Response.json({ object: 'list', data: [...state.models.values()].map(modelObject) });
}

export function retrieveModel(state: ServerState, id: string): Response {
  const model = state.models.get(id);
  if (!model) throw notFound(`The model '${id}' does not exist or you do not have access to it.`, 'model', 'model_not_found');
  return Response.json(modelObject(model));
}
