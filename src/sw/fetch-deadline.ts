/**
 * How long a `/v1` fetch through the service worker may take, in one place. Chromium ends a
 * service worker's fetch after about five minutes: measured, a request waiting behind a
 * running response failed in the page at 307 s as `TypeError: Failed to fetch`, and a
 * stream's body broke at 307 s the same way. The runtime is told the time left with each
 * request (wire.ts, `deadlineMs`) and answers before it (server/routes/http/
 * connection-deadline.ts): 4.5 minutes leaves half a minute of margin for a busy device.
 */
export const FETCH_DEADLINE_MS = 270_000;

/**
 * Tests only: a shorter deadline, set as a property of the service worker's own global
 * object (a test driver does that with the DevTools protocol). No URL, message or other
 * origin reaches it, and it can only shorten the deadline.
 */
const TEST_DEADLINE = Symbol.for('local-responses/test/fetch-deadline-ms');

/** The deadline a fetch starting now gets, in milliseconds. */
export function fetchDeadlineMs(scope: object = globalThis): number {
  const override = (scope as Record<symbol, unknown>)[TEST_DEADLINE];
  return typeof override === 'number' && override > 0 && override < FETCH_DEADLINE_MS ? override : FETCH_DEADLINE_MS;
}
