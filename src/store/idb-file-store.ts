/** FileStore (ports/file-store.ts) on IndexedDB through `idb`, in the runtime's one database. */
import { openDB, type IDBPDatabase } from 'idb';
import type { FileStore, StoredBatch, StoredChunk, StoredFile, StoredStoreFile, StoredVectorStore } from '../ports/file-store';
import { DB_VERSION, migrate, type ResponsesDB } from './idb-schema';
import { DEFAULT_DB_NAME, type IdbStoreOptions } from './idb-store';

export async function openIdbFileStore(options: IdbStoreOptions = {}): Promise<FileStore & { close(): void }> {
  if (!globalThis.indexedDB) throw new Error('IndexedDB is not available in this context.');
  const db = await openDB<ResponsesDB>(options.name ?? DEFAULT_DB_NAME, DB_VERSION, {
    upgrade: (database, oldVersion, _newVersion, tx) => migrate(database, oldVersion, tx),
  });
  return new IdbFileStore(db);
}

const storeRange = (storeId: string) => IDBKeyRange.bound([storeId, ''], [storeId, '\uffff']);
const fileChunkRange = (storeId: string, fileId: string) => IDBKeyRange.bound([storeId, fileId, -Infinity], [storeId, fileId, Infinity]);
const storeChunkRange = (storeId: string) => IDBKeyRange.bound([storeId, '', -Infinity], [storeId, '\uffff', Infinity]);
const byAttachment = (a: StoredStoreFile, b: StoredStoreFile) => a.stored_at - b.stored_at || (a.file_id < b.file_id ? -1 : a.file_id > b.file_id ? 1 : 0);
const byStorage = (a: { stored_at: number; id: string }, b: { stored_at: number; id: string }) => a.stored_at - b.stored_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

class IdbFileStore implements FileStore {
  constructor(private readonly db: IDBPDatabase<ResponsesDB>) {}

  async putFile(file: StoredFile, blob: Blob): Promise<void> {
    const tx = this.db.transaction(['files', 'file_blobs'], 'readwrite');
    await Promise.all([tx.objectStore('files').put(file), tx.objectStore('file_blobs').put(blob, file.id), tx.done]);
  }

  getFile(id: string): Promise<StoredFile | undefined> {
    return this.db.get('files', id);
  }

  fileBlob(id: string): Promise<Blob | undefined> {
    return this.db.get('file_blobs', id);
  }

  async listFiles(): Promise<StoredFile[]> {
    return (await this.db.getAll('files')).sort(byStorage);
  }

  async deleteFile(id: string): Promise<boolean> {
    const tx = this.db.transaction(['files', 'file_blobs', 'file_texts'], 'readwrite');
    const found = (await tx.objectStore('files').getKey(id)) !== undefined;
    await Promise.all([tx.objectStore('files').delete(id), tx.objectStore('file_blobs').delete(id), tx.objectStore('file_texts').delete(id), tx.done]);
    return found;
  }

  async getText(key: string): Promise<string | undefined> {
    return (await this.db.get('file_texts', key))?.text;
  }

  async putText(key: string, text: string): Promise<void> {
    await this.db.put('file_texts', { key, text });
  }

  async putVectorStore(store: StoredVectorStore): Promise<void> {
    await this.db.put('vector_stores', store);
  }

  getVectorStore(id: string): Promise<StoredVectorStore | undefined> {
    return this.db.get('vector_stores', id);
  }

  async listVectorStores(): Promise<StoredVectorStore[]> {
    return (await this.db.getAll('vector_stores')).sort(byStorage);
  }

  async deleteVectorStore(id: string): Promise<boolean> {
    const tx = this.db.transaction(['vector_stores', 'vector_store_files', 'chunks', 'search_indexes', 'file_batches'], 'readwrite');
    const found = (await tx.objectStore('vector_stores').getKey(id)) !== undefined;
    const writes: Promise<unknown>[] = [
      tx.objectStore('vector_stores').delete(id),
      tx.objectStore('vector_store_files').delete(storeRange(id)),
      tx.objectStore('chunks').delete(storeChunkRange(id)),
      tx.objectStore('search_indexes').delete(id),
    ];
    // Batches are few and short-lived: a scan is cheaper than an index on every batch row.
    for (let c = await tx.objectStore('file_batches').openCursor(); c; c = await c.continue()) if (c.value.vector_store_id === id) writes.push(c.delete());
    await Promise.all([...writes, tx.done]);
    return found;
  }

  async putStoreFile(row: StoredStoreFile): Promise<void> {
    await this.db.put('vector_store_files', row);
  }

  getStoreFile(storeId: string, fileId: string): Promise<StoredStoreFile | undefined> {
    return this.db.get('vector_store_files', [storeId, fileId]);
  }

  async listStoreFiles(storeId: string): Promise<StoredStoreFile[]> {
    return (await this.db.getAll('vector_store_files', storeRange(storeId))).sort(byAttachment);
  }

  async storesOfFile(fileId: string): Promise<StoredStoreFile[]> {
    return this.db.getAllFromIndex('vector_store_files', 'by-file', fileId);
  }

  async unfinishedStoreFiles(): Promise<StoredStoreFile[]> {
    return (await this.db.getAllFromIndex('vector_store_files', 'by-status', 'in_progress')).sort(byAttachment);
  }

  async deleteStoreFile(storeId: string, fileId: string): Promise<boolean> {
    const tx = this.db.transaction(['vector_store_files', 'chunks'], 'readwrite');
    const found = (await tx.objectStore('vector_store_files').getKey([storeId, fileId])) !== undefined;
    await Promise.all([tx.objectStore('vector_store_files').delete([storeId, fileId]), tx.objectStore('chunks').delete(fileChunkRange(storeId, fileId)), tx.done]);
    return found;
  }

  async putBatch(batch: StoredBatch): Promise<void> {
    await this.db.put('file_batches', batch);
  }

  getBatch(id: string): Promise<StoredBatch | undefined> {
    return this.db.get('file_batches', id);
  }

  async finishStoreFile(row: StoredStoreFile, chunks: StoredChunk[]): Promise<boolean> {
    const tx = this.db.transaction(['vector_store_files', 'chunks'], 'readwrite');
    const files = tx.objectStore('vector_store_files');
    // Detached, cancelled or its store deleted while it was being read: nothing is written.
    if ((await files.get([row.vector_store_id, row.file_id]))?.status !== 'in_progress') {
      tx.abort();
      await tx.done.catch(() => undefined);
      return false;
    }
    const store = tx.objectStore('chunks');
    await store.delete(fileChunkRange(row.vector_store_id, row.file_id));
    await Promise.all([files.put(row), ...chunks.map((chunk) => store.put(chunk)), tx.done]);
    return true;
  }

  async getChunks(storeId: string, keys: ReadonlyArray<readonly [string, number]>): Promise<StoredChunk[]> {
    const tx = this.db.transaction('chunks', 'readonly');
    const rows = await Promise.all(keys.map(([fileId, index]) => tx.store.get([storeId, fileId, index])));
    await tx.done;
    return rows.filter((r): r is StoredChunk => r !== undefined);
  }

  fileChunks(storeId: string, fileId: string): Promise<StoredChunk[]> {
    return this.db.getAll('chunks', fileChunkRange(storeId, fileId));
  }

  getIndex(storeId: string): Promise<unknown> {
    return this.db.get('search_indexes', storeId);
  }

  async putIndex(storeId: string, snapshot: unknown): Promise<void> {
    // Only for a store that still exists: a snapshot saved after its deletion would be an orphan.
    const tx = this.db.transaction(['vector_stores', 'search_indexes'], 'readwrite');
    if ((await tx.objectStore('vector_stores').getKey(storeId)) !== undefined) await tx.objectStore('search_indexes').put(snapshot, storeId);
    await tx.done;
  }

  close(): void {
    this.db.close();
  }
}
