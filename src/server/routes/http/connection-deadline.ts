/**
 * What the server does when the connection a request came on will be cut at a known time
 * (`protocol/connection-deadline.ts`: the service worker's fetch, which Chromium ends after
 * ~5 minutes): answer before that, as an API answer, never a network failure.
 *
 * - A plain request still waiting for its engine at the deadline is taken out of the line,
 *   never to run, and answered 503 `queue_timeout` with `Retry-After`.
 * - A plain request running at the deadline is stopped (`incomplete`) and answered 504
 *   `connection_time_limit`: its answer could not arrive anyway.
 * - A stream ends at the deadline with an `error` event that says what happened: for a
 *   background response, how to resume it; for a foreground one, that it was stopped, or
 *   (still waiting) that it was not run.
 */
import { ApiError } from '../../../shared/api-error';
import { Codes, type ErrorCode } from '../../../shared/error-codes';
import { errorResponse } from '../../../protocol/error-response';
import type { StreamEvent } from '../../../protocol/stream-events';

/** Seconds a client is told to wait before sending a request that waited too long again. */
export const RETRY_AFTER_SECONDS = 30;

const DEADLINE = Symbol('deadline');

/** Resolves with {@link DEADLINE} at `deadline` (epoch ms); `cancel` clears the timer. */
function timer(deadline: number): { expired: Promise<typeof DEADLINE>; cancel: () => void } {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<typeof DEADLINE>((resolve) => (handle = setTimeout(() => resolve(DEADLINE), Math.max(0, deadline - Date.now()))));
  return { expired, cancel: () => clearTimeout(handle) };
}

/** `done`'s value, or `onDeadline()`'s when `deadline` comes first. */
export async function beforeDeadline<T>(done: Promise<T>, deadline: number | null, onDeadline: () => Promise<T>): Promise<T> {
  if (deadline === null) return done;
  const clock = timer(deadline);
  try {
    const first = await Promise.race([done, clock.expired]);
    return first === DEADLINE ? await onDeadline() : first;
  } finally {
    clock.cancel();
  }
}

/**
 * `events` until `deadline`; then `last(sequenceNumber)` — the `error` event that ends the
 * stream, told the sequence number of the last event sent — and nothing more.
 */
export async function* untilDeadline(events: AsyncIterable<StreamEvent>, deadline: number | null, last: (sequenceNumber: number) => StreamEvent): AsyncGenerator<StreamEvent> {
  if (deadline === null) return yield* events;
  const iterator = events[Symbol.asyncIterator]();
  const clock = timer(deadline);
  let sent = -1;
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), clock.expired]);
      if (next === DEADLINE) {
        yield last(sent);
        return;
      }
      if (next.done) return;
      sent = next.value.sequence_number;
      yield next.value;
    }
  } finally {
    clock.cancel();
    // Not awaited: it settles once the event the iterator waits for arrives (sse-body.ts).
    void iterator.return?.(undefined)?.catch(() => {});
  }
}

/** An `error` stream event (OpenAI's top-level fields and the Open Responses `error` payload). */
export function errorEvent(sequenceNumber: number, code: ErrorCode, message: string): StreamEvent {
  return { type: 'error', sequence_number: sequenceNumber, code, message, param: null, error: { type: 'server_error', code, message, param: null } };
}

/** The 503 for a plain request that could not start in time (it was taken out of the line). */
export function queueTimeoutResponse(message: string): Response {
  const response = errorResponse(new ApiError({ status: 503, type: 'server_error', code: Codes.queueTimeout, param: null, message }));
  response.headers.set('retry-after', String(RETRY_AFTER_SECONDS));
  return response;
}

/** The 504 for a plain request stopped because its answer could not arrive before the cut. */
export function timeLimitResponse(message: string): Response {
  const response = errorResponse(new ApiError({ status: 504, type: 'server_error', code: Codes.connectionTimeLimit, param: null, message }));
  // Sent again, it would meet the same limit: the SDKs' automatic retries must not.
  response.headers.set('x-should-retry', 'false');
  return response;
}

const HOW_TO_AVOID =
  'Requests from a page that runs startLocalRuntime (its fetch of /v1 is routed past the service worker) have no such limit; through the service worker, use background: true and stream the response, resuming as told.';

/** Messages, spelled once. `waitedS`: seconds since the request arrived. */
export const deadlineMessages = {
  notStarted: (waitedS: number) =>
    `The request waited ${waitedS} s behind other work on this model and could not start before the service worker's time limit (the browser ends a service worker's fetch after about 5 minutes), so it was not run and will not run. Send it again later. ${HOW_TO_AVOID}`,
  stopped: (id: string, waitedS: number) =>
    `The response ${id} ran ${waitedS} s and would not finish before the service worker's time limit (the browser ends a service worker's fetch after about 5 minutes), so it was stopped (status incomplete). ${HOW_TO_AVOID}`,
  resume: (id: string, status: string, after: number) =>
    `This stream ended before the service worker's time limit (the browser ends a service worker's fetch after about 5 minutes). The response ${id} is still ${status.replace('_', ' ')} in the background: resume with GET /v1/responses/${id}?stream=true&starting_after=${after}.`,
};
