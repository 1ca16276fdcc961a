/**
 * Service worker entry of our app: the HTTP edge of the local Responses API (the same
 * `handleLocalResponsesFetch` the package gives other apps' workers) plus the app shell's
 * precache. It keeps no state that matters — browsers stop service workers at will, which
 * must cost nothing but the open connections.
 *
 * Built as a classic IIFE script (see vite.config.ts).
 */
import { SKIP_WAITING_MESSAGE, readPageMessage } from '../transport/sw-messages';
import { handleLocalResponsesFetch } from 'local-responses/sw';
import { installPrecache, takesOverAtInstall } from './precache';

declare const self: ServiceWorkerGlobalScope;

// First visit: take over the page that registered us without waiting for a reload. An
// update waits instead: the page offers it and sends SKIP_WAITING_MESSAGE when the person
// agrees (see precache.ts).
self.addEventListener('install', (event) => {
  if (takesOverAtInstall()) event.waitUntil(self.skipWaiting());
});
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('message', (event) => {
  if (readPageMessage(event.data)?.type === SKIP_WAITING_MESSAGE) event.waitUntil(self.skipWaiting());
});

// Before the precache's listener: /v1 is never answered from the cache.
self.addEventListener('fetch', (event) => {
  handleLocalResponsesFetch(event);
});

// Registered after the /v1 listener: the app shell from the precache (a no-op in dev).
installPrecache();
