/**
 * Local extensions under `/v1/local/`: runtime status, model download with progress (SSE),
 * and cache deletion. Not part of OpenAI's API; the chat app uses them.
 */
import type { LoadEvent } from '../../protocol/local-status';
import { encodeSseEvent, SSE_DONE } from '../../protocol/sse';
import { errorBody } from '../../protocol/error-response';
import { ApiError, toApiErrorData } from '../../shared/api-error';
import { lookupModel, type ServerState } from '../server-state';
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
  const encoder = new TextEncoder();
  const abort = new AbortController();
  signal.addEventListener('abort', () => abort.abort(), { once: true });
  // Once the reader cancelled, the load winds down and nothing more may be enqueued.
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (event: LoadEvent) => {
        if (!cancelled) controller.enqueue(encoder.encode(encodeSseEvent(event)));
      };
      models
        .load(id, (progress) => send({ type: 'progress', ...progress }), abort.signal)
        .then(
          () => send({ type: 'ready', model: id }),
          (err: unknown) => send({ type: 'error', ...errorBody(toApiErrorData(err)) }),
        )
        .finally(() => {
          if (cancelled) return;
          controller.enqueue(encoder.encode(SSE_DONE));
          controller.close();
        });
    },
    cancel() {
      cancelled = true;
      abort.abort();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } });
}

export async function deleteCachedModel(state: ServerState, id: string): Promise<Response> {
  lookupModel(state, id);
  await manager(state).deleteCached(id);
  return Response.json({ id, object: 'model.cache.deleted', deleted: true });
}
