/**
 * `POST /v1/responses/input_tokens`: how many input tokens a create request with this body
 * would use — instructions, the `previous_response_id` chain, tools and the new input, as the
 * model's chat format renders them — without running it. Counted by the engine on exactly
 * what it would feed the model. `estimated` (our addition to OpenAI's shape) is true when the
 * engine has no tokenizer to count with and estimates instead (web-llm and wllama 3 expose none).
 */
import { prepareRequest } from '../request/prepare-request';
import type { ServerState } from '../state/server-state';
import { readJsonBody } from './http/read-json';

export async function countInputTokens(state: ServerState, httpRequest: Request): Promise<Response> {
  const { model, promptTokens } = await prepareRequest(state, await readJsonBody(httpRequest), httpRequest.signal);
  return Response.json({ object: 'response.input_tokens', input_tokens: promptTokens, estimated: !model.engine.exactTokenCounts });
}
