import { describe, expect, it } from 'vitest';
import type { OfflineFilesStatus } from 'local-responses';
import { offlineNoticeText } from './offline-notice';

const status = (over: Partial<OfflineFilesStatus>): OfflineFilesStatus => ({ state: 'caching', files: 4, cachedFiles: 1, bytes: 200, cachedBytes: 50, pending: ['python', 'cpu-engine'], ...over });

describe('offlineNoticeText', () => {
  it('names what is still being fetched, with the share of bytes kept', () => {
    expect(offlineNoticeText(status({}))).toBe('Making Python and the CPU engine available offline… 25%');
    expect(offlineNoticeText(status({ pending: ['python', 'cpu-engine', 'web-search'] }))).toBe('Making Python, the CPU engine and web search available offline… 25%');
  });
  it('says a paused fetch resumes online, and nothing once all is kept (or before the service worker spoke)', () => {
    expect(offlineNoticeText(status({ state: 'paused', pending: ['cpu-engine'] }))).toBe('Not available offline yet: the CPU engine (fetched when the network is back).');
    expect(offlineNoticeText(status({ state: 'done', cachedFiles: 4, cachedBytes: 200, pending: [] }))).toBeNull();
    expect(offlineNoticeText(null)).toBeNull();
  });
});
