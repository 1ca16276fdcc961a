import { describe, expect, it } from 'vitest';
import { MemoryCacheStorage } from '../../test/fakes/memory-cache-storage';
import type { OfflineFilesStatus } from '../protocol/offline-files';
import { OfflineFiles, type OfflineEntry } from './offline-files';

const SCOPE = 'https://app.test/';
const ENTRIES: OfflineEntry[] = [
  { url: 'assets/wllama-abc.wasm', revision: null, bytes: 30, feature: 'cpu-engine' },
  { url: 'pyodide/pyodide.asm.wasm', revision: 'r1', bytes: 100, feature: 'python' },
];

function setup(entries = ENTRIES, caches = new MemoryCacheStorage()) {
  const fetched: string[] = [];
  let failing = false;
  const statuses: OfflineFilesStatus[] = [];
  const files = new OfflineFiles({
    entries,
    scope: SCOPE,
    caches: caches.asCacheStorage(),
    fetch: async (input) => {
      const url = String(input instanceof Request ? input.url : input);
      if (failing) throw new TypeError('Failed to fetch');
      fetched.push(url);
      await new Promise((r) => setTimeout(r, 5));
      return new Response(`body of ${new URL(url).pathname}`);
    },
    onStatus: (s) => statuses.push(s),
  });
  return { files, fetched, statuses, caches, fail: (v: boolean) => (failing = v) };
}

describe('OfflineFiles', () => {
  it('fills the cache Python first, reports progress, then answers from the cache without the network', async () => {
    const { files, fetched, statuses } = setup();
    expect((await files.status()).pending).toEqual(['python', 'cpu-engine']);
    await files.fill();
    expect(fetched).toEqual([`${SCOPE}pyodide/pyodide.asm.wasm`, `${SCOPE}assets/wllama-abc.wasm`]);
    expect(statuses.at(-1)).toEqual({ state: 'done', files: 2, cachedFiles: 2, bytes: 130, cachedBytes: 130, pending: [] });
    expect(statuses.some((s) => s.state === 'caching' && s.cachedBytes === 100 && s.pending.join() === 'cpu-engine')).toBe(true);
    const response = await files.respond(new Request(`${SCOPE}pyodide/pyodide.asm.wasm?v=2`));
    expect(await response.text()).toBe('body of /pyodide/pyodide.asm.wasm');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(fetched).toHaveLength(2);
  });

  it('a file asked for while the fill downloads it is downloaded once', async () => {
    const { files, fetched } = setup();
    const fill = files.fill();
    const [response] = await Promise.all([files.respond(new Request(`${SCOPE}assets/wllama-abc.wasm`)), fill]);
    expect(await response.text()).toBe('body of /assets/wllama-abc.wasm');
    expect(fetched.filter((u) => u.endsWith('wllama-abc.wasm'))).toHaveLength(1);
  });

  it('only handles same-origin GETs of listed files', () => {
    const { files } = setup();
    expect(files.handles(new Request(`${SCOPE}pyodide/pyodide.asm.wasm`))).toBe(true);
    expect(files.handles(new Request(`${SCOPE}pyodide/other.js`))).toBe(false);
    expect(files.handles(new Request('https://elsewhere.test/pyodide/pyodide.asm.wasm'))).toBe(false);
    expect(files.handles(new Request(`${SCOPE}pyodide/pyodide.asm.wasm`, { method: 'POST', body: 'x' }))).toBe(false);
  });

  it('offline: the fill pauses with the reason, and resumes where it stopped', async () => {
    const { files, fetched, fail } = setup();
    fail(true);
    await files.fill();
    const paused = await files.status();
    expect(paused).toMatchObject({ state: 'paused', cachedFiles: 0, error: 'Failed to fetch' });
    fail(false);
    await files.fill();
    expect((await files.status()).state).toBe('done');
    expect(fetched).toHaveLength(2);
  });

  it('an update keeps what did not change, drops what its list no longer names, and refetches a new revision', async () => {
    const caches = new MemoryCacheStorage();
    await setup(ENTRIES, caches).files.fill();
    const next = setup([{ ...ENTRIES[0]! }, { ...ENTRIES[1]!, revision: 'r2' }], caches);
    await next.files.cleanup();
    const [cache] = [...caches.caches.values()];
    expect([...cache!.entries.keys()]).toEqual([`${SCOPE}assets/wllama-abc.wasm`]);
    await next.files.fill();
    expect(next.fetched).toEqual([`${SCOPE}pyodide/pyodide.asm.wasm`]);
    expect([...cache!.entries.keys()].sort()).toEqual([`${SCOPE}assets/wllama-abc.wasm`, `${SCOPE}pyodide/pyodide.asm.wasm?__offline_revision=r2`]);
  });
});
