/**
 * The search indexes of vector stores, loaded on first use and kept for the few stores in use
 * (an index of 10,000 long chunks takes ~250 MB: at most MAX_LOADED stay in memory). An index
 * is persisted as a snapshot that names the files it covers; at load it is reconciled with
 * the store's completed files (a file finished after the last snapshot is added from its
 * chunks, one detached meanwhile removed), so a snapshot lost to a closed tab costs time,
 * never a result.
 */
import type { FileStore } from '../../ports/file-store';
import type { IndexedChunk, SearchIndexes, StoreIndex } from '../../ports/search-index';
import { describeError } from '../../shared/api-error';

const MAX_LOADED = 3;
/** A changed index is saved this long after its last change (saving a big one takes a while). */
const SAVE_DELAY_MS = 2_000;

interface Loaded {
  index: Promise<StoreIndex>;
  dirty: boolean;
  timer: ReturnType<typeof setTimeout> | null;
  /** Serializes changes and saves of this index. */
  chain: Promise<unknown>;
}

export class StoreIndexes {
  readonly #loaded = new Map<string, Loaded>();

  constructor(
    private readonly store: FileStore,
    private readonly indexes: SearchIndexes,
  ) {}

  /** The store's index, loaded (and reconciled) on first use, once the changes under way are in. */
  async get(storeId: string): Promise<StoreIndex> {
    const entry = this.#entry(storeId);
    await entry.chain;
    return entry.index;
  }

  /** Adds a file that just completed (to a loaded index; one not loaded finds it at load). */
  async fileCompleted(storeId: string, fileId: string, chunks: readonly IndexedChunk[]): Promise<void> {
    // Loading the index for this change may already have added the file from its chunks.
    await this.#change(storeId, (index) => (index.files().get(fileId) === chunks.length ? undefined : index.add(fileId, chunks)));
  }

  /** Removes a detached file from the store's index (loading it if need be: its snapshot would still name the file). */
  async fileRemoved(storeId: string, fileId: string): Promise<void> {
    const snapshot = this.#loaded.has(storeId) || (await this.store.getIndex(storeId)) !== undefined;
    if (snapshot) await this.#change(storeId, (index) => index.remove(fileId));
  }

  /** Forgets a deleted store's index. */
  forget(storeId: string): void {
    const entry = this.#loaded.get(storeId);
    if (entry?.timer) clearTimeout(entry.timer);
    this.#loaded.delete(storeId);
  }

  /** Saves every changed index now (when ingestion goes idle, and at shutdown). */
  async saveAll(): Promise<void> {
    await Promise.all([...this.#loaded.keys()].map((id) => this.#save(id)));
  }

  #entry(storeId: string): Loaded {
    let entry = this.#loaded.get(storeId);
    if (entry) {
      // Most recently used last: the first entry is the one to evict.
      this.#loaded.delete(storeId);
      this.#loaded.set(storeId, entry);
      return entry;
    }
    const index = this.#load(storeId);
    entry = { index, dirty: false, timer: null, chain: index.catch(() => undefined) };
    this.#loaded.set(storeId, entry);
    index.catch(() => this.#loaded.delete(storeId));
    this.#evict();
    return entry;
  }

  async #change(storeId: string, change: (index: StoreIndex) => unknown): Promise<void> {
    const entry = this.#entry(storeId);
    const next = entry.chain.then(async () => {
      await change(await entry.index);
      entry.dirty = true;
    });
    entry.chain = next.catch(() => undefined);
    await next;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => void this.#save(storeId), SAVE_DELAY_MS);
  }

  async #save(storeId: string): Promise<void> {
    const entry = this.#loaded.get(storeId);
    if (entry) await this.#saveEntry(storeId, entry);
  }

  async #saveEntry(storeId: string, entry: Loaded): Promise<void> {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    const next = entry.chain.then(async () => {
      if (!entry.dirty) return;
      entry.dirty = false;
      try {
        await this.store.putIndex(storeId, (await entry.index).snapshot());
      } catch (err) {
        // The chunks are the truth: the next load rebuilds what this snapshot would have held.
        console.warn(`Could not save the search index of ${storeId}: ${describeError(err)}`);
      }
    });
    entry.chain = next.catch(() => undefined);
    await next;
  }

  #evict(): void {
    while (this.#loaded.size > MAX_LOADED) {
      const [oldest] = this.#loaded.keys();
      const entry = oldest === undefined ? undefined : this.#loaded.get(oldest);
      if (oldest === undefined || !entry) return;
      // Out of the map now (a later use loads it again, from what this save writes).
      this.#loaded.delete(oldest);
      void this.#saveEntry(oldest, entry);
    }
  }

  async #load(storeId: string): Promise<StoreIndex> {
    const snapshot = await this.store.getIndex(storeId);
    const index = (snapshot !== undefined ? await this.indexes.restore(snapshot) : null) ?? (await this.indexes.create());
    const completed = (await this.store.listStoreFiles(storeId)).filter((row) => row.status === 'completed');
    const want = new Map(completed.map((row) => [row.file_id, row.chunk_count]));
    let changed = false;
    for (const [fileId, count] of [...index.files()]) {
      if (want.get(fileId) !== count) {
        index.remove(fileId);
        changed = true;
      }
    }
    for (const row of completed) {
      if (index.files().has(row.file_id)) continue;
      const chunks = await this.store.fileChunks(storeId, row.file_id);
      await index.add(row.file_id, chunks.map((c) => ({ fileId: c.file_id, index: c.index, text: c.text, vector: c.vector })));
      changed = true;
    }
    if (changed) queueMicrotask(() => void this.#markDirty(storeId));
    return index;
  }

  #markDirty(storeId: string): void {
    const entry = this.#loaded.get(storeId);
    if (!entry) return;
    entry.dirty = true;
    if (!entry.timer) entry.timer = setTimeout(() => void this.#save(storeId), SAVE_DELAY_MS);
  }
}
