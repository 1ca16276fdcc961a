/**
 * Says what is still being made available offline: the app is ready before Python and the
 * CPU engine are kept (the service worker fetches them afterwards), and until they are, a
 * reload without network would lack them.
 */
import type { OfflineFeature, OfflineFilesStatus } from 'local-responses';
import { useServices } from '../app-context';
import { useStore } from '../external-store';

const FEATURE_NAMES: Record<OfflineFeature, string> = { python: 'Python', 'cpu-engine': 'the CPU engine', 'gpu-engine': 'the GPU engine', 'web-search': 'web search', 'file-search': 'file search', programs: 'programs (programmatic tool calling)', other: 'the app icons' };

/** "Python, the CPU engine and web search" */
export function featureList(features: readonly OfflineFeature[]): string {
  const names = features.map((f) => FEATURE_NAMES[f]);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The notice's text, or null when there is nothing to say. */
export function offlineNoticeText(status: OfflineFilesStatus | null): string | null {
  if (!status || status.state === 'done' || status.pending.length === 0) return null;
  const what = featureList(status.pending);
  if (status.state === 'paused') return `Not available offline yet: ${what} (fetched when the network is back).`;
  const percent = status.bytes > 0 ? Math.floor((status.cachedBytes / status.bytes) * 100) : 0;
  return `Making ${what} available offline… ${percent}%`;
}

export function OfflineNotice() {
  const status = useStore(useServices().offlineFiles);
  const text = offlineNoticeText(status);
  if (!text) return null;
  return (
    <p className="offline-notice" role="status" data-offline-state={status?.state}>
      {text}
    </p>
  );
}
