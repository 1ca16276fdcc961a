/**
 * This app's own service worker: Workbox precaches the app's pages, and one call hands
 * `/v1/*` to the local runtime. Everything but `/v1` stays this worker's business.
 */
import { handleLocalResponsesFetch } from 'local-responses/sw';
import { cleanupOutdatedCaches, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

// Control the first page without a reload: `/v1` goes through this worker from the start.
self.addEventListener('install', (event) => event.waitUntil(self.skipWaiting()));
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

// First, so `/v1` is never looked up in the precache.
self.addEventListener('fetch', (event) => {
  handleLocalResponsesFetch(event);
});

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);
