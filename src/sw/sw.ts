/**
 * Service worker entry: the HTTP edge of the local Responses API. Forwards same-origin
 * `/v1/*` to the runtime worker and keeps no state that matters — browsers stop service
 * workers at will, which must cost nothing but the open connections.
 *
 * Built as a classic IIFE script (see vite.config.ts).
 */
import { holdLifetimeLock } from '../transport/lifetime-lock';
import { newLockName, PEER_LOCK_PREFIX } from '../transport/lock-names';
import { CACHE_OFFLINE_FILES_MESSAGE, CLAIM_MESSAGE, OFFLINE_FILES_MESSAGE, readPageMessage, RUNTIME_PORT_MESSAGE, SKIP_WAITING_MESSAGE, type OfflineFilesMessage } from '../transport/sw-messages';
import { refuseCrossSite } from './cross-site-guard';
import { forwardToRuntime } from './forward-to-runtime';
import { OfflineFiles, type OfflineEntry } from './offline-files';
import { installPrecache, takesOverAtInstall } from './precache';
import { RuntimeConnection } from './runtime-connection';

declare const self: ServiceWorkerGlobalScope & { __OFFLINE_FILES?: OfflineEntry[] };

const peerLockName = newLockName(PEER_LOCK_PREFIX);
const connection = new RuntimeConnection({
  peerLock: holdLifetimeLock(peerLockName).then(() => peerLockName),
  async askPages(message) {
    const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const page of pages) page.postMessage(message);
  },
});
const appUrl = new URL('/', self.location.href).href;
// The one injection point of the deferred list (vite.config.ts); empty in dev.
const offlineFiles = new OfflineFiles({
  entries: self.__OFFLINE_FILES ?? [],
  scope: self.registration.scope,
  caches: self.caches,
  fetch: (input, init) => fetch(input, init),
  onStatus(status) {
    void self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((pages) => {
      for (const page of pages) page.postMessage({ type: OFFLINE_FILES_MESSAGE, status } satisfies OfflineFilesMessage);
    });
  },
});

// First visit: take over the page that registered us without waiting for a reload. An
// update waits instead: the page offers it and sends SKIP_WAITING_MESSAGE when the person
// agrees (see precache.ts).
self.addEventListener('install', (event) => {
  if (takesOverAtInstall()) event.waitUntil(self.skipWaiting());
});
self.addEventListener('activate', (event) => event.waitUntil(Promise.all([self.clients.claim(), offlineFiles.cleanup()])));

self.addEventListener('message', (event) => {
  const data = readPageMessage(event.data);
  if (data?.type === RUNTIME_PORT_MESSAGE) event.waitUntil(connection.accept(data));
  if (data?.type === SKIP_WAITING_MESSAGE) event.waitUntil(self.skipWaiting());
  // A hard-reloaded page is not controlled until we claim it again.
  if (data?.type === CLAIM_MESSAGE) event.waitUntil(self.clients.claim());
  // Sent once the app is ready: the deferred files come after it, never before.
  if (data?.type === CACHE_OFFLINE_FILES_MESSAGE) event.waitUntil(offlineFiles.fill());
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  // Same origin only: no other origin's requests are ever answered (and no CORS headers sent).
  if (url.origin !== self.location.origin) return;
  if (offlineFiles.handles(event.request)) return event.respondWith(offlineFiles.respond(event.request));
  if (url.pathname !== '/v1' && !url.pathname.startsWith('/v1/')) return;
  // Before the runtime sees it: another origin's form or link must change nothing.
  event.respondWith(refuseCrossSite(event.request, self.location.origin) ?? forwardToRuntime(event, connection, appUrl));
});

// Registered after the /v1 listener: the app shell from the precache (a no-op in dev).
installPrecache();
