/** `GET`, `DELETE` and `POST …/cancel` on `/v1/responses/{id}`. */
import { TERMINAL_STATUSES, type ResponseObject } from '../../protocol/response-object';
import { invalidRequest, notFound } from '../../shared/api-error';
import type { ServerState } from '../server-state';
import { includesFromQuery, presentEvents, presentResponse } from '../output/include-filter';
import { sseResponse } from './http/sse-body';
import { Codes } from '../../shared/error-codes';
import { sealEvents, sealResponse } from '../output/sealed-output';

function missing(id: string) {
  return notFound(`Response with id '${id}' not found.`, null, null);
}

/** The live snapshot while it runs, else the stored object. */
async function current(state: ServerState, id: string): Promise<ResponseObject> {
  const run = state.runs.get(id);
  if (run) return run.snapshot();
  const stored = await state.store.get(id);
  if (!stored) throw missing(id);
  return stored;
}

export async function retrieveResponse(state: ServerState, id: string, url: URL, signal: AbortSignal): Promise<Response> {
  const stream = url.searchParams.get('stream');
  if (stream !== null && stream !== 'true' && stream !== 'false')
    throw invalidRequest(`Invalid value for 'stream': expected 'true' or 'false', got '${stream}'.`, 'stream', Codes.invalidValue);
  const include = includesFromQuery(url);
  const response = await current(state, id);
  if (stream !== 'true') return Response.json(await sealResponse(presentResponse(response, include), include, state.sealer));

  const rawAfter = url.searchParams.get('starting_after');
  const after = rawAfter === null ? -1 : Number(rawAfter);
  if (!Number.isInteger(after) || after < -1)
    throw invalidRequest(`Invalid 'starting_after': expected a non-negative integer, got '${rawAfter}'.`, 'starting_after', Codes.invalidValue);
  // The live log holds every event of a running response from 0, so it alone is exact;
  // a finished one replays from storage (it was persisted before the run left the table).
  const run = state.runs.get(id);
  if (run) return sseResponse(sealEvents(presentEvents(run.log.follow(after, signal), include), include, state.sealer));
  const events = await state.store.events(id, after);
  if (events.length === 0 && !(await state.store.events(id, -1)).length)
    throw invalidRequest(
      `Response '${id}' has no event log to stream: only streamed or background responses keep one, and logs of finished responses are pruned after a while. Retrieve it without stream=true.`,
      'stream',
      Codes.noEventLog,
    );
  return sseResponse(sealEvents(presentEvents(fromArray(events), include), include, state.sealer));
}

async function* fromArray<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

export async function deleteResponse(state: ServerState, id: string): Promise<Response> {
  const run = state.runs.get(id);
  run?.stop('delete');
  // Gone at once for readers, even while the stopped run unwinds.
  state.runs.delete(id);
  const deleted = await state.store.delete(id);
  if (!deleted && !run) throw missing(id);
  return Response.json({ id, object: 'response.deleted', deleted: true });
}

export async function cancelResponse(state: ServerState, id: string): Promise<Response> {
  const response = await current(state, id);
  if (!response.background)
    throw invalidRequest('Only responses created with background=true can be cancelled.', null, null);
  if (response.status === 'cancelled') return Response.json(presentResponse(response, NO_INCLUDES));
  if (TERMINAL_STATUSES.has(response.status))
    throw invalidRequest(`Cannot cancel a response with status '${response.status}'.`, null, null);
  const run = state.runs.get(id);
  if (!run) throw missing(id);
  run.stop('cancel');
  return Response.json(presentResponse(await run.done, NO_INCLUDES));
}

const NO_INCLUDES: ReadonlySet<string> = new Set();
