/**
 * wllama's model cache as the engine uses it outside a load, with the listing read straight
 * from the origin's private file system: which GGUF files are downloaded is asked whenever
 * the models are listed (the model picker, a newcomer's first visit), and must not download
 * llama.cpp's JavaScript (`@wllama/wllama`) for a choice that may not need it. Deleting a
 * file goes through wllama's own `CacheManager` (imported then).
 *
 * The listing is `CacheManager.list()` of @wllama/wllama 3.13 (its default backend lists
 * through its OPFS one): the files of the OPFS folder `cache`; a file `__metadata__<name>`
 * holds the JSON metadata of `<name>` (`originalURL`, `originalSize`, …); a file without
 * readable metadata gets `{ originalSize: its size, originalURL: '' }`. `opfs-cache.test.ts`
 * lists the same fake folder both ways. Nothing is created: a missing `cache` folder is an
 * empty cache (wllama would create it empty).
 */
import type { WllamaCacheEntry, WllamaCacheLike } from './wllama-like';

const CACHE_DIR = 'cache';
const PREFIX_METADATA = '__metadata__';

/** `navigator.storage`, as far as the listing reads it. */
export interface OpfsStorage {
  getDirectory(): Promise<FileSystemDirectoryHandle>;
}

/** One listed file: wllama's `CacheEntry` (its storage name too). */
export interface ListedFile extends WllamaCacheEntry {
  name: string;
}

function defaultStorage(): OpfsStorage {
  const storage = (globalThis as { navigator?: { storage?: Partial<OpfsStorage> } }).navigator?.storage;
  // As wllama's CacheManager, which refuses to start without a storage backend.
  if (!storage?.getDirectory) throw new Error('No supported storage backend found');
  return storage as OpfsStorage;
}

/** The files in wllama's OPFS cache with their metadata, as `CacheManager.list()` gives them. */
export async function listWllamaCache(storage: OpfsStorage = defaultStorage()): Promise<ListedFile[]> {
  const root = await storage.getDirectory();
  let dir: FileSystemDirectoryHandle;
  try {
    dir = await root.getDirectoryHandle(CACHE_DIR);
  } catch (error) {
    if ((error as { name?: string } | null)?.name === 'NotFoundError') return [];
    throw error;
  }
  const files: { name: string; file: File }[] = [];
  // `entries()` is in every browser with OPFS, but not yet in TypeScript's DOM types.
  const entries = (dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries();
  for await (const [name, handle] of entries) {
    if (handle.kind === 'file') files.push({ name, file: await (handle as FileSystemFileHandle).getFile() });
  }
  const metadata = new Map<string, unknown>();
  for (const { name, file } of files) {
    if (!name.startsWith(PREFIX_METADATA)) continue;
    metadata.set(name.slice(PREFIX_METADATA.length), await new Response(file).json().catch(() => null));
  }
  return files
    .filter(({ name }) => !name.startsWith(PREFIX_METADATA))
    .map(({ name, file }) => {
      const meta = metadata.get(name);
      return { name, size: file.size, metadata: (meta || { originalSize: file.size, originalURL: '', etag: '' }) as WllamaCacheEntry['metadata'] };
    });
}

/** The engine's cache: listed here, deleted by wllama. */
export function opfsWllamaCache(storage?: OpfsStorage): WllamaCacheLike {
  let manager: Promise<{ delete(url: string): Promise<void> }> | null = null;
  return {
    list: () => listWllamaCache(storage),
    async delete(url) {
      manager ??= import('@wllama/wllama').then(({ CacheManager }) => new CacheManager());
      // A failed start (no OPFS) is tried again next time.
      manager.catch(() => (manager = null));
      await (await manager).delete(url);
    },
  };
}
