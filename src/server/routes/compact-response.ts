/**
 * `POST /v1/responses/compact`: the compacted window of a conversation (its `input`, its
 * `previous_response_id` chain or its `conversation`), as OpenAI returns it — the user
 * messages kept as they are, then one `compaction` item whose sealed summary the model
 * wrote and which stands for everything else. The client sends that window (plus what
 * comes next) as the input of its next create. Nothing is stored or changed.
 *
 * The user messages kept are the newest that fit a quarter of the context window: on a
 * small local model, all of a long chat's questions would not fit, and the summary covers
 * the rest.
 */
import { parseCompactRequest } from '../../protocol/compact-request';
import { newId } from '../../shared/ids';
import { compactWindow } from '../request/compact-window';
import type { ServerState } from '../state/server-state';
import { readJsonBody } from './http/read-json';

export async function compactResponse(state: ServerState, httpRequest: Request): Promise<Response> {
  const request = parseCompactRequest(await readJsonBody(httpRequest));
  const { output, usage } = await compactWindow(state, request, httpRequest.signal);
  return Response.json({
    id: newId('resp'),
    object: 'response.compaction',
    created_at: state.now(),
    output,
    usage: {
      input_tokens: usage.inputTokens,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: usage.outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.inputTokens + usage.outputTokens,
    },
  });
}
