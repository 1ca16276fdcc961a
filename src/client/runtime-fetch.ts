import { RuntimeGoneError, sendOverPort, toWire, tooLargeResponse } from '../transport/port-fetch';
import { MAX_BODY_BYTES, MAX_UPLOAD_BODY_BYTES, transportError, transportErrorResponse } from '../transport/transport-error';
import { Codes } from '../shared/error-codes';
import type { PageLinkResult } from './page-link';

export interface RuntimeFetchOptions {
  /**
   * This tab's link to the runtime: its own in the tab that runs it, else one connected
   * through the service worker (`page-link.ts`); `undefined` when neither can be had (no
   * runtime in this tab and no service worker controlling it).
   */
  link: () => Promise<PageLinkResult | undefined>;
  origin: string;
  fallback?: typeof fetch;
}

/** Whether `url` is this origin's `/v1` API (`/v1` or below it). */
export function isLocalApiUrl(url: string | URL, origin: string): boolean {
  const parsed = new URL(url);
  return parsed.origin === origin && (parsed.pathname === '/v1' || parsed.pathname.startsWith('/v1/'));
}

/**
 * A `fetch` that sends same-origin `/v1/*` requests straight to the runtime over a
 * MessagePort — in every tab, never as a service worker fetch (which Chromium cuts after ~5
 * minutes) — and everything else to the network. Usable as
 * `new OpenAI({ baseURL: location.origin + '/v1', fetch })`.
 */
export function createRuntimeFetch({ link, origin, fallback = (input, init) => globalThis.fetch(input, init) }: RuntimeFetchOptions): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (!isLocalApiUrl(request.url, origin)) return fallback(request);
    let got = await link();
    if (!got) {
      // Without a service worker only the leader tab can reach the runtime; the network
      // would answer with the app's HTML.
      return unavailable('Another tab runs the local runtime and this browser offers no service worker to reach it. Use that tab, or close it so this one takes over.');
    }
    const wire = await toWire(request, MAX_BODY_BYTES, MAX_UPLOAD_BODY_BYTES);
    if (!wire) return tooLargeResponse(request);
    // A link can die between being handed out and being used: then, if the runtime never
    // accepted the request, try once more with a fresh one (the next leader's).
    for (let attempt = 0; got && attempt < 2; attempt++) {
      if ('refused' in got) return transportErrorResponse(503, got.refused);
      try {
        return (await sendOverPort(got.link, wire, request.signal)).response;
      } catch (error) {
        if (!(error instanceof RuntimeGoneError)) throw error; // the caller aborted: rejects as fetch does
        if (error.accepted) return unavailable('The local runtime stopped (was its tab closed?) before answering. Send the request again.');
      }
      got = await link();
    }
    return unavailable('No local runtime is running. Open the app in a tab to start it.');
  };
}

function unavailable(message: string): Response {
  return transportErrorResponse(503, transportError(Codes.runtimeUnavailable, message));
}
