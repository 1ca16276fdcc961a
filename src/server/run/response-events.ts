/**
 * A response as it stands and its events, wherever they are: a running response's live
 * snapshot and live log (which holds every event from 0, so it alone is exact), or — once it
 * has left the server's table — the stored object and the event log persisted before it left.
 */
import { TERMINAL_STATUSES, type ResponseObject } from '../../protocol/response-object';
import { recoveredTerminalSequence, TERMINAL_EVENT_TYPES, terminalEventType, type StreamEvent } from '../../protocol/stream-events';
import { invalidRequest, notFound } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import type { ServerState } from '../state/server-state';

export function responseNotFound(id: string) {
  return notFound(`Response with id '${id}' not found.`, null, null);
}

/** The live snapshot while it runs, else the stored object. */
export async function currentResponse(state: ServerState, id: string): Promise<ResponseObject> {
  const run = state.runs.get(id);
  if (run) return run.snapshot();
  const stored = await state.store.get(id);
  if (!stored) throw responseNotFound(id);
  return stored;
}

/**
 * The events after sequence number `after` (-1: all), following a running response live.
 * A finished response's replay always ends with its terminal event, whatever `after` the
 * client resumes from: a log that lacks one (cut off before it was written) or whose
 * terminal event is not after `after` gets one, numbered past every number a client can have
 * seen (protocol/stream-events.ts, UNLOGGED_EVENTS_MAX) — so the numbers still only grow.
 */
export async function responseEvents(state: ServerState, response: ResponseObject, after: number, signal: AbortSignal): Promise<AsyncIterable<StreamEvent>> {
  const { id } = response;
  const run = state.runs.get(id);
  if (run) return run.follow(after, signal);
  const events = await state.store.events(id, after);
  const log = events.length > 0 ? events : await state.store.events(id, -1);
  const last = log.at(-1);
  if (!last)
    throw invalidRequest(
      `Response '${id}' has no event log to stream: once finished, only a background response (created with background=true) keeps one, and only for a while. Retrieve it without stream=true.`,
      'stream',
      Codes.noEventLog,
    );
  const type = terminalEventType(response.status);
  if (!type || events.some((e) => TERMINAL_EVENT_TYPES.has(e.type))) return fromArray(events);
  const loggedTerminal = TERMINAL_EVENT_TYPES.has(last.type);
  const sequence = loggedTerminal ? after + 1 : Math.max(recoveredTerminalSequence(last.sequence_number), after + 1);
  return fromArray([...events, { type, sequence_number: sequence, response }]);
}

/** Cancels a background response that is still running; the response as it ended. */
export async function cancelRun(state: ServerState, id: string): Promise<ResponseObject> {
  const response = await currentResponse(state, id);
  if (!response.background) throw invalidRequest('Only responses created with background=true can be cancelled.', null, null);
  if (response.status === 'cancelled') return response;
  if (TERMINAL_STATUSES.has(response.status)) throw invalidRequest(`Cannot cancel a response with status '${response.status}'.`, null, null);
  const run = state.runs.get(id);
  if (!run) throw responseNotFound(id);
  run.stop('cancel');
  return run.done;
}

/** Deletes a response, stopping it first if it runs; false when there was none. */
export async function deleteRun(state: ServerState, id: string): Promise<boolean> {
  const run = state.runs.get(id);
  run?.stop('delete');
  // Gone at once for readers, even while the stopped run unwinds.
  state.runs.delete(id);
  const deleted = await state.store.delete(id);
  return deleted || run !== undefined;
}

async function* fromArray<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}
