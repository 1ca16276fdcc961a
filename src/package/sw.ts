/**
 * `local-responses/sw`: for an app that has its own service worker. Import it in that
 * worker (module import, or `importScripts` of the package's `sw-module` build) and call
 * `handleLocalResponsesFetch(event)` first in its `fetch` listener: it answers `/v1/*` and
 * returns `true`, and leaves every other request to the app.
 *
 * The worker must control the first page without a reload (`skipWaiting()` and
 * `clients.claim()` on first install), or `/v1` answers only after a reload.
 */
export { handleLocalResponsesFetch } from '../sw/local-responses-edge';
