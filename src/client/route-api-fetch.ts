/**
 * The page's global `fetch`, routed: same-origin `/v1` requests go to the runtime over a
 * MessagePort (`runtime-fetch.ts`), every other request to the browser's own `fetch`,
 * untouched (same arguments, same `this`). What `startLocalRuntime({ directFetch })` installs,
 * so that code that knows nothing of this package — the `openai` SDK with `baseURL:
 * location.origin + '/v1'`, a plain `fetch('/v1/models')` — is never a service worker fetch
 * for `/v1`, which Chromium cuts after ~5 minutes whether it waited or streamed.
 */
import { isLocalApiUrl } from './runtime-fetch';

const ROUTED = Symbol.for('local-responses/routed-fetch');

type RoutedFetch = typeof fetch & { [ROUTED]?: typeof fetch };

/**
 * Replaces `scope.fetch` with one that hands same-origin `/v1` requests to `api`; returns
 * the browser's own `fetch` (for the requests `api` itself must send to the network).
 * Idempotent: a second call keeps the first routing and returns the same original.
 */
export function routeApiFetch(api: typeof fetch, scope: { fetch: typeof fetch } = globalThis, origin = location.origin, base = location.href): typeof fetch {
  const current = scope.fetch as RoutedFetch;
  const existing = current[ROUTED];
  if (existing) return existing;
  const native = current;
  const routed: RoutedFetch = function fetch(this: unknown, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    if (isApi(input, origin, base)) return api(input, init);
    // As called: the browser's fetch checks its `this` and its argument count as usual.
    return Reflect.apply(native, this ?? scope, arguments as unknown as unknown[]) as Promise<Response>;
  };
  Object.defineProperty(routed, ROUTED, { value: native });
  scope.fetch = routed;
  return native;
}

function isApi(input: RequestInfo | URL, origin: string, base: string): boolean {
  let url: URL;
  try {
    url = new URL(input instanceof Request ? input.url : String(input), base);
  } catch {
    return false; // the browser's fetch rejects it with its own TypeError
  }
  return isLocalApiUrl(url, origin);
}
