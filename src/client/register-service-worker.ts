import { CLAIM_MESSAGE, type ClaimMessage } from '../transport/sw-messages';

/**
 * Registers the edge service worker and resolves once this page is controlled by it, or
 * with `false` at once when the browser refused to register it (private modes, enterprise
 * policy, a test harness): then `/v1` is reached without one, through `localFetch`.
 *
 * First visit: the SW calls skipWaiting + clients.claim, so `controllerchange` fires
 * without a reload. A hard reload (shift+reload) leaves the page uncontrolled even though
 * the SW is active; then the page asks the SW to claim it.
 */
export async function registerServiceWorker(container: ServiceWorkerContainer, url: string): Promise<boolean> {
  const controlled = new Promise<void>((resolve) => {
    if (container.controller) resolve();
    container.addEventListener('controllerchange', () => resolve(), { once: true });
  });
  // Classic script (an IIFE bundle): works in every browser with service workers.
  const registration = await container.register(url, { scope: '/' }).catch((error: unknown) => {
    console.warn(`local-responses: the service worker ${url} could not be registered; /v1 answers through localFetch only.`, error);
    return undefined;
  });
  // No registration: `ready` would never settle.
  if (!registration) return false;
  if (container.controller) return true;
  const ready = await container.ready;
  if (!container.controller) ready.active?.postMessage({ type: CLAIM_MESSAGE } satisfies ClaimMessage);
  await controlled;
  return true;
}
