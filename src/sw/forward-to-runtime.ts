import { RuntimeGoneError, sendOverPort, toWire, tooLargeResponse } from '../transport/port-fetch';
import { MAX_BODY_BYTES, MAX_UPLOAD_BODY_BYTES, runtimeUnavailable } from '../transport/transport-error';
import type { RuntimeConnection } from './runtime-connection';
import { fetchDeadlineMs } from './fetch-deadline';

/** How long a request waits for a page to hand over a runtime port (SW restart, handover). */
const PORT_WAIT_MS = 3_000;

/**
 * Answers one `/v1/*` fetch event from the runtime. The body is streamed through; the
 * event's lifetime is extended until it is fully delivered so the browser does not stop
 * the SW mid-stream. Chromium still ends the fetch after ~5 minutes, so the runtime is
 * told the deadline (`fetch-deadline.ts`) and answers before it: a request that could not
 * start gets a 503, a stream ends with an `error` event (a background one saying how to
 * resume with `starting_after`).
 */
export async function forwardToRuntime(event: FetchEvent, connection: RuntimeConnection, appUrl: string): Promise<Response> {
  const deadline = Date.now() + fetchDeadlineMs();
  // The body limits are the server's (protocol/request-limits.ts, and the file limit of
  // protocol/files.ts for uploads), checked here too so that a huge body is refused before
  // this worker holds it; an upload crosses as a Blob, never read here.
  const wire = await toWire(event.request, MAX_BODY_BYTES, MAX_UPLOAD_BODY_BYTES);
  if (!wire) return tooLargeResponse(event.request);
  // A link can die between being handed out and being used: then, if the runtime never
  // accepted the request, try once more with a fresh one (the next leader's).
  for (let attempt = 0; attempt < 2; attempt++) {
    const link = await connection.link(PORT_WAIT_MS);
    if (!link) return runtimeUnavailable(appUrl);
    try {
      const { response, finished } = await sendOverPort(link, wire, event.request.signal, deadline);
      event.waitUntil(finished);
      return response;
    } catch (error) {
      if (!(error instanceof RuntimeGoneError)) throw error; // the client aborted: nobody reads the answer
      if (error.accepted) {
        return runtimeUnavailable(appUrl, 'The local runtime stopped (was its tab closed?) before answering.');
      }
    }
  }
  return runtimeUnavailable(appUrl);
}
