/** `GET`, `DELETE` and `POST …/cancel` on `/v1/responses/{id}`. */
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { includesFromQuery } from '../output/include-filter';
import { presentSnapshot, presentStream, type Presentation } from '../output/present';
import { cancelRun, currentResponse, deleteRun, responseEvents, responseNotFound } from '../run/response-events';
import type { ServerState } from '../state/server-state';
import { sseResponse } from './http/sse-body';
import { deadlineMessages, errorEvent, untilDeadline } from './http/connection-deadline';

/** `deadline`: when the connection will be cut (`protocol/connection-deadline.ts`); a replay stream ends before it, saying how to resume. */
export async function retrieveResponse(state: ServerState, id: string, url: URL, signal: AbortSignal, deadline: number | null = null): Promise<Response> {
  const stream = url.searchParams.get('stream');
  if (stream !== null && stream !== 'true' && stream !== 'false')
    throw invalidRequest(`Invalid value for 'stream': expected 'true' or 'false', got '${stream}'.`, 'stream', Codes.invalidValue);
  const presentation: Presentation = { include: includesFromQuery(url), sealer: state.sealer, tools: state.tools };
  const response = await currentResponse(state, id);
  if (stream !== 'true') return Response.json(await presentSnapshot(response, presentation));

  const rawAfter = url.searchParams.get('starting_after');
  const after = rawAfter === null ? -1 : Number(rawAfter);
  if (!Number.isInteger(after) || after < -1)
    throw invalidRequest(`Invalid 'starting_after': expected a non-negative integer, got '${rawAfter}'.`, 'starting_after', Codes.invalidValue);
  const events = presentStream(await responseEvents(state, response, after, signal), presentation);
  return sseResponse(
    untilDeadline(events, deadline, (sent) => {
      const last = Math.max(sent, after);
      const status = state.runs.get(id)?.snapshot().status ?? response.status;
      return errorEvent(last + 1, Codes.connectionTimeLimit, deadlineMessages.resume(id, status, last));
    }),
  );
}

export async function deleteResponse(state: ServerState, id: string): Promise<Response> {
  if (!(await deleteRun(state, id))) throw responseNotFound(id);
  return Response.json({ id, object: 'response.deleted', deleted: true });
}

export async function cancelResponse(state: ServerState, id: string): Promise<Response> {
  // Shown without includes: a cancel asks for none (as OpenAI's answer).
  return Response.json(await presentSnapshot(await cancelRun(state, id), { include: new Set(), sealer: state.sealer, tools: state.tools }));
}
