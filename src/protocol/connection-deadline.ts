/**
 * How the transport tells the server that the connection a request came on will be cut:
 * a request header, set by the runtime's side of the transport only (a requester's own is
 * dropped), whose value is the milliseconds left until then. The service worker sets the
 * budget (`sw/fetch-deadline.ts`): Chromium ends a service worker's fetch after ~5 minutes.
 * A request without it (a page's own, straight over a MessagePort) has no deadline.
 */
export const CONNECTION_DEADLINE_HEADER = 'local-responses-connection-deadline-ms';

/** The absolute deadline (epoch ms) of `request`, or null when its connection has none. */
export function connectionDeadline(request: Request, now = Date.now()): number | null {
  const value = request.headers.get(CONNECTION_DEADLINE_HEADER);
  if (value === null) return null;
  const ms = Number(value);
  return Number.isFinite(ms) && ms >= 0 ? now + ms : null;
}
