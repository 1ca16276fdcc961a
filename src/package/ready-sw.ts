/**
 * The package's ready service worker (`local-responses/sw.js`), for an app without one of
 * its own: serve it at `/sw.js` (e.g. copy it into Vite's `public/`). It is the `/v1` edge and
 * nothing else: it caches nothing and leaves every other request to the network.
 */
import { readPageMessage, SKIP_WAITING_MESSAGE } from '../transport/sw-messages';
import { handleLocalResponsesFetch } from '../sw/local-responses-edge';

declare const self: ServiceWorkerGlobalScope;

// The first install takes over at once (the page that registered it must be controlled
// without a reload); an update waits until a page sends SKIP_WAITING_MESSAGE.
self.addEventListener('install', (event) => {
  if (self.registration.active === null) event.waitUntil(self.skipWaiting());
});
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('message', (event) => {
  if (readPageMessage(event.data)?.type === SKIP_WAITING_MESSAGE) event.waitUntil(self.skipWaiting());
});
self.addEventListener('fetch', (event) => {
  handleLocalResponsesFetch(event);
});
