/**
 * The files the app starts without — pyodide, the CPU engine's WebAssembly, code the
 * runtime imports at a feature's first use — kept offline after the first visit.
 *
 * The app shell is precached before the service worker takes over (precache.ts), so that
 * is all "Ready" waits for. These files (listed at build time at `self.__OFFLINE_FILES`,
 * with revision, size and feature; see vite.config.ts) are fetched afterwards, one at a
 * time so the page keeps the bandwidth, when a page asks (`CACHE_OFFLINE_FILES_MESSAGE`,
 * sent by the tab that runs the runtime after its first answer), and each one also when it is first requested. Either way
 * it lands in one cache and is answered from there from then on; two requests for a file
 * share one download.
 *
 * An update's list replaces the old one: on activation the cache drops every entry the
 * new list does not name (a changed revision is a new key), and caches of other names
 * this module once used are deleted.
 */
import type { OfflineFeature, OfflineFilesStatus } from '../protocol/offline-files';
import { withSecurityHeaders } from './security-headers';

/** One deferred file, as workbox-build's manifest transform wrote it. */
export interface OfflineEntry {
  url: string;
  revision: string | null;
  bytes: number;
  feature: OfflineFeature;
}

export interface OfflineFilesOptions {
  entries: readonly OfflineEntry[];
  /** What entry URLs resolve against (the service worker's scope). */
  scope: string;
  caches: CacheStorage;
  fetch: typeof fetch;
  /** Told the status whenever it changes (the service worker tells every page). */
  onStatus(status: OfflineFilesStatus): void;
}

interface Item {
  entry: OfflineEntry;
  url: string;
  /** The cache key: the URL, with the revision when the file name carries none. */
  key: string;
}

const CACHE_PREFIX = 'local-responses-offline-files';
const FEATURE_ORDER: readonly OfflineFeature[] = ['python', 'cpu-engine', 'gpu-engine', 'web-search', 'file-search', 'programs', 'other'];

export class OfflineFiles {
  private readonly items: Item[];
  private readonly byPath = new Map<string, Item>();
  private readonly cacheName: string;
  private readonly inflight = new Map<string, Promise<void>>();
  private filling: Promise<void> | null = null;
  private lastError: string | undefined;

  constructor(private readonly options: OfflineFilesOptions) {
    this.cacheName = `${CACHE_PREFIX}-v1-${options.scope}`;
    // Fetched in this order: what a first question most likely needs first.
    const rank = (entry: OfflineEntry) => FEATURE_ORDER.indexOf(entry.feature);
    this.items = [...options.entries].sort((a, b) => rank(a) - rank(b)).map((entry) => {
      const url = new URL(entry.url, options.scope).href;
      const key = entry.revision ? `${url}?__offline_revision=${encodeURIComponent(entry.revision)}` : url;
      return { entry, url, key };
    });
    for (const item of this.items) this.byPath.set(new URL(item.url).pathname, item);
  }

  /** Whether `request` asks for a deferred file (a same-origin GET; query strings do not matter). */
  handles(request: Request): boolean {
    const url = new URL(request.url);
    return request.method === 'GET' && url.origin === new URL(this.options.scope).origin && this.byPath.has(url.pathname);
  }

  /** The file from the cache; fetched into it first when missing. Offline and not kept: the network's own error. */
  async respond(request: Request): Promise<Response> {
    const item = this.byPath.get(new URL(request.url).pathname)!;
    const cache = await this.options.caches.open(this.cacheName);
    let cached = await cache.match(item.key);
    if (!cached) {
      await this.fetchInto(item).catch(() => {});
      cached = await cache.match(item.key);
    }
    return cached ? withSecurityHeaders(cached) : this.options.fetch(request);
  }

  /** Fetches every file not kept yet, one after another. Resolves when done or paused by a failure; never rejects. */
  fill(): Promise<void> {
    this.filling ??= (async () => {
      this.lastError = undefined;
      const cache = await this.options.caches.open(this.cacheName);
      await this.report('caching');
      try {
        for (const item of this.items) {
          if (!(await cache.match(item.key))) await this.fetchInto(item);
        }
      } catch (error) {
        this.lastError = error instanceof Error ? error.message : String(error);
      } finally {
        this.filling = null;
      }
      await this.report();
    })();
    return this.filling;
  }

  async status(state?: OfflineFilesStatus['state']): Promise<OfflineFilesStatus> {
    const cache = await this.options.caches.open(this.cacheName);
    const kept = new Set((await cache.keys()).map((r) => r.url));
    const missing = this.items.filter((i) => !kept.has(i.key));
    const sum = (items: Item[]) => items.reduce((n, i) => n + i.entry.bytes, 0);
    const all = sum(this.items);
    return {
      state: missing.length === 0 ? 'done' : (state ?? (this.filling ? 'caching' : 'paused')),
      files: this.items.length,
      cachedFiles: this.items.length - missing.length,
      bytes: all,
      cachedBytes: all - sum(missing),
      pending: FEATURE_ORDER.filter((f) => missing.some((i) => i.entry.feature === f)),
      ...(this.lastError && missing.length > 0 ? { error: this.lastError } : {}),
    };
  }

  /** On activation: drop what the current list no longer names, and caches of other versions. */
  async cleanup(): Promise<void> {
    const current = new Set(this.items.map((i) => i.key));
    for (const name of await this.options.caches.keys()) {
      if (name.startsWith(CACHE_PREFIX) && name !== this.cacheName) await this.options.caches.delete(name);
    }
    const cache = await this.options.caches.open(this.cacheName);
    for (const request of await cache.keys()) {
      if (!current.has(request.url)) await cache.delete(request);
    }
  }

  /** One download per file at a time, whoever asks; rejects on a network error or an error status. */
  private fetchInto(item: Item): Promise<void> {
    let pending = this.inflight.get(item.key);
    if (!pending) {
      pending = (async () => {
        // A file named by its hash may come from the HTTP cache; one with a revision must not.
        const response = await this.options.fetch(item.url, { cache: item.entry.revision ? 'reload' : 'default', credentials: 'same-origin' });
        if (!response.ok) throw new Error(`${item.url} answered HTTP ${response.status}`);
        const cache = await this.options.caches.open(this.cacheName);
        await cache.put(item.key, response);
        await this.report();
      })().finally(() => this.inflight.delete(item.key));
      this.inflight.set(item.key, pending);
    }
    return pending;
  }

  private async report(state?: OfflineFilesStatus['state']): Promise<void> {
    this.options.onStatus(await this.status(state));
  }
}
