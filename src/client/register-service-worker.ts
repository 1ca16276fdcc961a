import { CLAIM_MESSAGE, type ClaimMessage } from '../transport/sw-messages';

/**
 * Registers the edge service worker and resolves once this page is controlled by it.
 *
 * First visit: the SW calls skipWaiting + clients.claim, so `controllerchange` fires
 * without a reload. A hard reload (shift+reload) leaves the page uncontrolled even though
 * the SW is active; then the page asks the SW to claim it.
 */
export async function registerServiceWorker(container: ServiceWorkerContainer, url: string): Promise<void> {
  const controlled = new Promise<void>((resolve) => {
    if (container.controller) resolve();
    container.addEventListener('controllerchange', () => resolve(), { once: true });
  });
  // Classic script (an IIFE bundle): works in every browser with service workers.
  await container.register(url, { scope: '/' });
  if (container.controller) return;
  const ready = await container.ready;
  if (!container.controller) ready.active?.postMessage({ type: CLAIM_MESSAGE } satisfies ClaimMessage);
  await controlled;
}
