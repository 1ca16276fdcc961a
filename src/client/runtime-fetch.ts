import { fetchOverPort, type RuntimeLink } from '../transport/port-fetch';
import { transportError, transportErrorResponse } from '../transport/transport-error';
import { Codes } from '../shared/error-codes';

export interface RuntimeFetchOptions {
  /** This tab's own link to the runtime; `undefined` when another tab runs it. */
  link: () => Promise<RuntimeLink | undefined>;
  origin: string;
  /** Whether a service worker controls this page (then `/v1` reaches the leader through it). */
  controlled: () => boolean;
  fallback?: typeof fetch;
}

/**
 * A `fetch` that sends same-origin `/v1/*` requests straight to the runtime over a
 * MessagePort — no service worker — when this tab runs it, through the service worker
 * when another tab does, and everything else to the network. Usable as
 * `new OpenAI({ baseURL: location.origin + '/v1', fetch })`.
 */
export function createRuntimeFetch({
  link,
  origin,
  controlled,
  fallback = (input, init) => globalThis.fetch(input, init),
}: RuntimeFetchOptions): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const isApi = url.origin === origin && (url.pathname === '/v1' || url.pathname.startsWith('/v1/'));
    if (!isApi) return fallback(request);
    const direct = await link();
    if (direct) return (await fetchOverPort(direct, request)).response;
    if (controlled()) return fallback(request);
    // Without a service worker only the leader tab can reach the runtime; the network
    // would answer with the app's HTML.
    return transportErrorResponse(
      503,
      transportError(
        Codes.runtimeUnavailable,
        'Another tab runs the local runtime and this browser offers no service worker to reach it. Use that tab, or close it so this one takes over.',
      ),
    );
  };
}
