/**
 * Local extensions under `/v1/local/`: runtime status, model download with progress (SSE),
 * and cache deletion. Not part of OpenAI's API; the chat app uses them.
 */
import type { LoadEvent, LoadProgress } from '../../protocol/local-status';
import { errorBody } from '../../protocol/error-response';
import { ApiError, toApiErrorData } from '../../shared/api-error';
import { lookupModel, type ServerState } from '../state/server-state';
import type { ModelManager } from '../../ports/model-manager';
import { sseResponse } from './http/sse-body';
import { Codes } from '../../shared/error-codes';

function manager(state: ServerState) {
  if (!state.modelManager)
    throw new ApiError({ status: 404, type: 'invalid_request_error', code: Codes.unknownUrl, param: null, message: 'Model management is not available in this runtime.' });
  return state.modelManager;
}

export async function localStatus(state: ServerState): Promise<Response> {
  return Response.json(await manager(state).status());
}


/**
 * `POST /v1/local/models/{id}/load`: an SSE stream of `progress` events, then `ready`, or an
 * `error` event with the OpenAI error body. Closing the stream cancels the download.
 */
export function loadModel(state: ServerState, id: string, signal: AbortSignal): Response {
  const models = manager(state);
  lookupModel(state, id);
  const abort = new AbortController();
  signal.addEventListener('abort', () => abort.abort(), { once: true });
  return sseResponse(loadEvents(models, id, abort.signal), () => abort.abort());
}

/** The load's progress callbacks as events, in order; ends after `ready` or `error`. */
async function* loadEvents(models: ModelManager, id: string, signal: AbortSignal): AsyncGenerator<LoadEvent> {
  const queue: LoadEvent[] = [];
  let over = false;
  let wake: (() => void) | null = null;
  const push = (event: LoadEvent) => {
    queue.push(event);
    wake?.();
  };
  models
    .load(id, (progress: LoadProgress) => push({ type: 'progress', ...progress }), signal)
    .then(
      () => push({ type: 'ready', model: id }),
      (err: unknown) => push({ type: 'error', ...errorBody(toApiErrorData(err)) }),
    )
    .finally(() => {
      over = true;
      wake?.();
    });
  for (;;) {
    while (queue.length > 0) yield queue.shift()!;
    if (over) return;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
}

export async function deleteCachedModel(state: ServerState, id: string): Promise<Response> {
  lookupModel(state, id);
  await manager(state).deleteCached(id);
  return Response.json({ id, object: 'model.cache.deleted', deleted: true });
}
