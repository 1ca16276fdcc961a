/**
 * Our listing of wllama's OPFS cache against wllama's own `CacheManager.list()`, on the same
 * fake private file system: complete and cut-off downloads, files without (or with broken)
 * metadata, folders, nothing at all — and the engine's "downloaded" answer built on it.
 */
import { CacheManager } from '@wllama/wllama';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryOpfs, type MemoryDirectoryHandle } from '../../../test/fakes/memory-opfs';
import { GGUF_TEST_CATALOG } from './gguf-catalog';
import { WllamaEngine } from './engine';
import { listWllamaCache, opfsWllamaCache } from './opfs-cache';

const meta = (url: string, size: number) => JSON.stringify({ originalURL: url, originalSize: size, etag: 'abc' });
const bytes = (n: number) => new Uint8Array(n);

/** Fills the fake OPFS; returns it with `navigator.storage` pointing at it (what wllama reads). */
function opfs(fill: (root: MemoryDirectoryHandle) => void) {
  const fs = memoryOpfs();
  fill(fs.root);
  vi.stubGlobal('navigator', { storage: fs.storage });
  return fs;
}

const byName = <T extends { name: string }>(list: T[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('listWllamaCache lists what wllama’s CacheManager.list() lists', () => {
  const cases: Array<[string, (root: MemoryDirectoryHandle) => void]> = [
    ['no cache folder', () => {}],
    ['an empty cache folder', (root) => root.write('cache/.keep-dir/x', 'x')],
    [
      'a complete download and one cut off',
      (root) => {
        root.write('cache/a1_model.gguf', bytes(10));
        root.write('cache/__metadata__a1_model.gguf', meta('https://m.example/model.gguf', 10));
        root.write('cache/b2_other.gguf', bytes(4));
        root.write('cache/__metadata__b2_other.gguf', meta('https://m.example/other.gguf', 9));
      },
    ],
    ['a file without metadata (an older wllama)', (root) => root.write('cache/c3_old.gguf', bytes(7))],
    [
      'unreadable metadata',
      (root) => {
        root.write('cache/d4_x.gguf', bytes(3));
        root.write('cache/__metadata__d4_x.gguf', '{not json');
      },
    ],
    ['metadata without its file', (root) => root.write('cache/__metadata__gone.gguf', meta('https://m.example/gone.gguf', 5))],
    ['a folder inside the cache', (root) => root.write('cache/sub/e5.gguf', bytes(2))],
  ];
  it.each(cases)('%s', async (_name, fill) => {
    const fs = opfs(fill);
    const ours = byName(await listWllamaCache(fs.storage));
    const theirs = byName(await new CacheManager().list());
    expect(ours).toEqual(theirs);
  });

  it('creates no cache folder where there was none (wllama would)', async () => {
    const fs = memoryOpfs();
    expect(await listWllamaCache(fs.storage)).toEqual([]);
    expect([...fs.root.children.keys()]).toEqual([]);
  });

  it('without a private file system it fails as wllama does', async () => {
    vi.stubGlobal('navigator', {});
    expect(() => new CacheManager()).toThrow('No supported storage backend found');
    await expect(opfsWllamaCache().list()).rejects.toThrow('No supported storage backend found');
  });
});

describe('the engine’s downloaded models, read without wllama', () => {
  it('is the catalog entries whose file is complete', async () => {
    const [tiny, stories] = GGUF_TEST_CATALOG;
    const base = 'https://mirror.example/gguf';
    const fs = opfs((root) => {
      root.write('cache/x_tiny.gguf', bytes(8));
      root.write('cache/__metadata__x_tiny.gguf', meta(`${base}/${tiny!.file}`, 8));
      root.write('cache/y_stories.gguf', bytes(3));
      root.write('cache/__metadata__y_stories.gguf', meta(`${base}/${stories!.file}`, 30));
    });
    const engine = new WllamaEngine({ catalog: GGUF_TEST_CATALOG, wasmUrl: 'https://app.example/wllama.wasm', modelBase: base });
    expect([...(await engine.cachedModels())]).toEqual([tiny!.id]);
    // The same answer wllama's own listing gives.
    const complete = (await new CacheManager().list()).filter((f) => f.size === f.metadata.originalSize).map((f) => f.metadata.originalURL);
    expect(complete).toEqual([`${base}/${tiny!.file}`]);
    expect(fs.root.children.size).toBe(1);
  });
});
