/**
 * An in-memory `CacheStorage` for Node tests of the service worker's caching (Node has no
 * Cache API). Only what src/pwa/offline-files.ts and web-llm's cache code use: open/keys/
 * delete/has, and a cache's match/put/add/keys/delete by URL (no Vary, no query-ignoring options).
 */
class MemoryCache {
  readonly entries = new Map<string, Response>();

  async match(request: RequestInfo | URL): Promise<Response | undefined> {
    const hit = this.entries.get(urlOf(request));
    return hit?.clone();
  }

  async put(request: RequestInfo | URL, response: Response): Promise<void> {
    // As the Cache API: the body is read in full before the entry exists.
    const body = await response.arrayBuffer();
    this.entries.set(urlOf(request), new Response(body, { status: response.status, headers: response.headers }));
  }

  async keys(): Promise<Request[]> {
    return [...this.entries.keys()].map((url) => new Request(url));
  }

  /** As the Cache API: fetches (the global `fetch`, so a test can stub it) and stores an OK response. */
  async add(request: RequestInfo | URL): Promise<void> {
    const response = await fetch(request);
    if (!response.ok) throw new TypeError(`Cache.add: HTTP ${response.status} for ${urlOf(request)}`);
    await this.put(request, response);
  }

  async delete(request: RequestInfo | URL): Promise<boolean> {
    return this.entries.delete(urlOf(request));
  }
}

function urlOf(request: RequestInfo | URL): string {
  return typeof request === 'string' ? request : request instanceof URL ? request.href : request.url;
}

export class MemoryCacheStorage {
  readonly caches = new Map<string, MemoryCache>();

  async open(name: string): Promise<MemoryCache> {
    let cache = this.caches.get(name);
    if (!cache) this.caches.set(name, (cache = new MemoryCache()));
    return cache;
  }

  async keys(): Promise<string[]> {
    return [...this.caches.keys()];
  }

  async delete(name: string): Promise<boolean> {
    return this.caches.delete(name);
  }

  async has(name: string): Promise<boolean> {
    return this.caches.has(name);
  }

  asCacheStorage(): CacheStorage {
    return this as unknown as CacheStorage;
  }
}
