/**
 * A WebSocket warm-up (`response.create` with `generate: false`): the request is checked and
 * its context read like any turn's, and a response with no output is made — stored when
 * `store` is on, so later turns (on the connection or over HTTP) continue from it with
 * `previous_response_id` — without the model running.
 */
import type { ResponseObject } from '../../protocol/response-object';
import type { StreamEvent } from '../../protocol/stream-events';
import { newId } from '../../shared/ids';
import type { PreparedRequest } from '../request/prepare-request';
import type { ServerState } from '../state/server-state';
import { initialResponse } from './response-factory';

/** The warm-up response and its two events (`response.created`, `response.completed`). */
export async function warmUp(state: ServerState, prepared: PreparedRequest): Promise<{ response: ResponseObject; events: StreamEvent[] }> {
  const { request, input } = prepared;
  const now = state.now();
  const started = initialResponse(newId('resp'), request, 'in_progress', now, state.tools.echo);
  const usage = { input_tokens: 0, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 };
  const response: ResponseObject = { ...started, status: 'completed', completed_at: now, usage };
  const events: StreamEvent[] = [
    { type: 'response.created', sequence_number: 0, response: started },
    { type: 'response.completed', sequence_number: 1, response },
  ];
  if (request.store ?? true) {
    await state.store.create(started, input);
    await state.store.save(response, events);
  }
  return { response, events };
}
