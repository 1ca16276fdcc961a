/**
 * The `/v1` edge as any service worker can host it: our own (sw.ts), the package's ready
 * one, or an app's own Workbox / vite-plugin-pwa worker. Importing this module listens for
 * the leader page's runtime ports (a `message` listener, added while the worker script is
 * first evaluated, as browsers want); `handleLocalResponsesFetch` answers `/v1/*` and leaves
 * every other request to the worker's own handlers.
 */
import { holdLifetimeLock } from '../transport/lifetime-lock';
import { newLockName, PEER_LOCK_PREFIX } from '../transport/lock-names';
import { CLAIM_MESSAGE, CONNECT_PAGE_MESSAGE, OPEN_SOCKET_MESSAGE, readPageMessage, RUNTIME_PORT_MESSAGE } from '../transport/sw-messages';
import { passOnConnect } from './pass-on-connect';
import { passOnSocket } from './pass-on-socket';
import { refuseCrossSite } from './cross-site-guard';
import { forwardToRuntime } from './forward-to-runtime';
import { RuntimeConnection } from './runtime-connection';

declare const self: ServiceWorkerGlobalScope;

const peerLockName = newLockName(PEER_LOCK_PREFIX);
const connection = new RuntimeConnection({
  peerLock: holdLifetimeLock(peerLockName).then(() => peerLockName),
  async askPages(message) {
    const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const page of pages) page.postMessage(message);
  },
});
const appUrl = new URL('/', self.location.href).href;

self.addEventListener('message', (event) => {
  // Only our own messages (validated); anything else is the host worker's business.
  const data = readPageMessage(event.data);
  if (data?.type === RUNTIME_PORT_MESSAGE) event.waitUntil(connection.accept(data));
  // A hard-reloaded page is not controlled until the worker claims it again.
  if (data?.type === CLAIM_MESSAGE) event.waitUntil(self.clients.claim());
  // A WebSocket connection of a tab that does not run the runtime (its frames bypass this worker).
  if (data?.type === OPEN_SOCKET_MESSAGE) event.waitUntil(passOnSocket(data.open, connection, appUrl));
  // A tab that does not run the runtime asks for a port of its own (its requests then bypass this worker).
  if (data?.type === CONNECT_PAGE_MESSAGE) event.waitUntil(passOnConnect(data.connect, connection, appUrl));
});

/**
 * Answers `event` when it is a same-origin `/v1/*` request and returns `true`; returns
 * `false` (and does nothing) for any other request, which the calling worker handles.
 *
 * @example
 * import { handleLocalResponsesFetch } from 'local-responses/sw';
 * self.addEventListener('fetch', (event) => {
 *   if (handleLocalResponsesFetch(event)) return;
 *   // … the app's own routing (Workbox, cache-first, …)
 * });
 */
export function handleLocalResponsesFetch(event: FetchEvent): boolean {
  const url = new URL(event.request.url);
  // Same origin only: no other origin's requests are ever answered (and no CORS headers sent).
  if (url.origin !== self.location.origin) return false;
  if (url.pathname !== '/v1' && !url.pathname.startsWith('/v1/')) return false;
  // Before the runtime sees it: another origin's form or link must change nothing.
  event.respondWith(refuseCrossSite(event.request, self.location.origin) ?? forwardToRuntime(event, connection, appUrl));
  return true;
}
