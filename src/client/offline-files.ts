/**
 * The page's side of keeping the deferred files offline (src/pwa/offline-files.ts): asks the
 * service worker to fetch them once the runtime has given its first answer, and keeps the
 * latest status it reports, checked against the contract (a message is whatever the sender
 * posted).
 */
import { OfflineFilesStatus } from '../protocol/offline-files';
import { CACHE_OFFLINE_FILES_MESSAGE, offlineFilesStatusIn, type CacheOfflineFilesMessage } from '../transport/sw-messages';

export interface OfflineFilesWatch {
  /** The latest status, or null before the service worker said anything (or without one). */
  current(): OfflineFilesStatus | null;
  /** Called on every new status; returns the unsubscribe function. */
  subscribe(listener: (status: OfflineFilesStatus) => void): () => void;
}

/**
 * Listens to the service worker's reports and asks it to fetch what is missing: once `after`
 * resolves (the runtime's first answer: nothing may compete with the app's start or with what
 * that answer needs — a model's download, the engine it runs on), then again when the
 * browser comes back online and when a new version takes over (its list may differ).
 * Without `after`, at once.
 */
export function keepOfflineFiles(container: ServiceWorkerContainer | undefined, after: Promise<unknown> = Promise.resolve()): OfflineFilesWatch {
  let latest: OfflineFilesStatus | null = null;
  let due = false;
  const listeners = new Set<(status: OfflineFilesStatus) => void>();
  const ask = () => {
    if (due) container?.controller?.postMessage({ type: CACHE_OFFLINE_FILES_MESSAGE } satisfies CacheOfflineFilesMessage);
  };
  container?.addEventListener('message', (event: MessageEvent<unknown>) => {
    const parsed = OfflineFilesStatus.safeParse(offlineFilesStatusIn(event.data));
    if (!parsed.success) return;
    latest = parsed.data;
    for (const listener of listeners) listener(parsed.data);
  });
  container?.addEventListener('controllerchange', ask);
  globalThis.addEventListener?.('online', () => {
    if (latest?.state !== 'done') ask();
  });
  void after.then(() => {
    due = true;
    ask();
  }, () => {});
  return {
    current: () => latest,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
