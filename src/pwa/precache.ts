/**
 * The PWA half of the service worker: Workbox precaching of the app shell (and pyodide
 * under /pyodide/ when the build has it), so a reload with the network off opens the app.
 *
 * The list is not written by hand: `self.__WB_MANIFEST` is replaced at build time by
 * workbox-build's `injectManifest` with every file of `dist/` (URL + revision), see
 * `vite.config.ts`. In dev the SW is built in memory without that step, so the list is
 * empty and nothing is precached (Vite serves fresh modules).
 */
import { addPlugins, cleanupOutdatedCaches, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { withSecurityHeaders } from './security-headers';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST?: Array<PrecacheEntry | string> };

export function installPrecache(): void {
  // The one injection point workbox-build looks for; it must appear exactly once.
  const manifest = self.__WB_MANIFEST ?? [];
  if (manifest.length === 0) return;
  cleanupOutdatedCaches();
  // The cache holds what the server sent; every answer from it gets the app's security
  // headers (CSP, no framing by other origins, …), whatever server filled the cache.
  addPlugins([{ handlerWillRespond: async ({ response }) => withSecurityHeaders(response) }]);
  precacheAndRoute(manifest, {
    // `/?test-models`, `/?model=…`: every query string opens the same shell. Precached
    // files are static, so no parameter ever selects a different file.
    ignoreURLParametersMatching: [/.*/],
    directoryIndex: 'index.html',
  });
}

/**
 * Whether a newly installed version may take over right away. The first install must
 * (the first visit has to be controlled without a reload); an update waits until the
 * page asks, so a running answer is never cut off and an open page never runs against
 * a service worker (and precache) of another version.
 */
export function takesOverAtInstall(): boolean {
  return self.registration.active === null;
}
