/**
 * Service worker entry of our app: the HTTP edge of the local Responses API (the same
 * `handleLocalResponsesFetch` the package gives other apps' workers), the app shell's
 * precache, and the deferred files (pyodide, the CPU engine, …) kept offline after the first answer.
 * It keeps no state that matters — browsers stop service workers at will, which must cost
 * nothing but the open connections.
 *
 * Built as a classic IIFE script (see vite.config.ts).
 */
import { CACHE_OFFLINE_FILES_MESSAGE, OFFLINE_FILES_MESSAGE, readPageMessage, SKIP_WAITING_MESSAGE, type OfflineFilesMessage } from '../transport/sw-messages';
import { handleLocalResponsesFetch } from 'local-responses/sw';
import { OfflineFiles, type OfflineEntry } from './offline-files';
import { installPrecache, takesOverAtInstall } from './precache';

declare const self: ServiceWorkerGlobalScope & { __OFFLINE_FILES?: OfflineEntry[] };

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
  if (data?.type === SKIP_WAITING_MESSAGE) event.waitUntil(self.skipWaiting());
  // Sent after the runtime's first answer: the deferred files come after it, never before.
  if (data?.type === CACHE_OFFLINE_FILES_MESSAGE) event.waitUntil(offlineFiles.fill());
});

// Before the precache's listener: /v1 is never answered from the cache.
self.addEventListener('fetch', (event) => {
  if (handleLocalResponsesFetch(event)) return;
  const url = new URL(event.request.url);
  if (url.origin === self.location.origin && offlineFiles.handles(event.request)) event.respondWith(offlineFiles.respond(event.request));
});

// Registered after the /v1 listener: the app shell from the precache (a no-op in dev).
installPrecache();
