/**
 * What changes vector stores: creating one, attaching and detaching files (an attached file
 * starts `in_progress` and is ingested in the background), cancelling a batch, deleting a
 * store or a file. Every change refuses with 507 `storage_full` when the disk is full.
 */
import type { StoredStoreFile, StoredVectorStore } from '../../ports/file-store';
import { resolveChunking, type ChunkingStrategy, type FileAttributes } from '../../protocol/vector-stores';
import { invalidRequest, notFound } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { isStorageFull, storageFull } from '../../shared/storage-full';
import type { FilesState } from './files-state';

/** Runs a write; a full disk becomes the 507 a client can act on. */
export async function refuseWhenFull<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw isStorageFull(err) ? storageFull(err) : err;
  }
}

export function vectorStoreNotFound(id: string): never {
  throw notFound(`No vector store found with id '${id}'.`, null, Codes.vectorStoreNotFound);
}

export async function requireStore(files: FilesState, id: string): Promise<StoredVectorStore> {
  return (await files.store.getVectorStore(id)) ?? vectorStoreNotFound(id);
}

export interface Attachment {
  fileId: string;
  attributes?: FileAttributes | null | undefined;
  chunking?: ChunkingStrategy | undefined;
}

/** Checks every file exists (a 400 naming the first that does not), before anything is attached. */
export async function checkFiles(files: FilesState, attachments: readonly Attachment[], param: (i: number) => string): Promise<void> {
  for (const [i, { fileId }] of attachments.entries())
    if (!(await files.library.get(fileId))) throw invalidRequest(`No file found with id '${fileId}'.`, param(i), Codes.fileNotFound);
}

/** Attaches files to a store (again, for one already there: it is read anew) and queues their ingestion. */
export async function attachFiles(files: FilesState, storeId: string, attachments: readonly Attachment[], batchId: string | null): Promise<StoredStoreFile[]> {
  const rows: StoredStoreFile[] = [];
  for (const attachment of attachments) {
    const id = attachment.fileId;
    files.ingestion.cancel((s, f) => s === storeId && f === id);
    const row: StoredStoreFile = {
      vector_store_id: storeId,
      file_id: id,
      created_at: files.now(),
      status: 'in_progress',
      last_error: null,
      usage_bytes: 0,
      attributes: attachment.attributes ?? null,
      chunking: resolveChunking(attachment.chunking),
      batch_id: batchId,
      chunk_count: 0,
      stored_at: performance.timeOrigin + performance.now(),
    };
    await refuseWhenFull(() => files.store.putStoreFile(row));
    await files.indexes.fileRemoved(storeId, id);
    rows.push(row);
  }
  for (const row of rows) files.ingestion.enqueue(storeId, row.file_id);
  return rows;
}

export async function detachFile(files: FilesState, storeId: string, fileId: string): Promise<boolean> {
  files.ingestion.cancel((s, f) => s === storeId && f === fileId);
  const found = await files.store.deleteStoreFile(storeId, fileId);
  if (found) await files.indexes.fileRemoved(storeId, fileId);
  return found;
}

export async function deleteStore(files: FilesState, storeId: string): Promise<boolean> {
  files.ingestion.cancel((s) => s === storeId);
  files.indexes.forget(storeId);
  const found = await files.store.deleteVectorStore(storeId);
  files.indexes.forget(storeId);
  return found;
}

/** Deletes a file, detaching it from every store first (OpenAI: "removes it from all vector stores"). */
export async function deleteFile(files: FilesState, fileId: string): Promise<boolean> {
  for (const row of await files.store.storesOfFile(fileId)) await detachFile(files, row.vector_store_id, fileId);
  return files.store.deleteFile(fileId);
}

/** Cancels a batch: its files still in progress stop and end `cancelled`. */
export async function cancelBatch(files: FilesState, storeId: string, batchId: string): Promise<void> {
  const batch = await files.store.getBatch(batchId);
  if (!batch || batch.vector_store_id !== storeId) return;
  await refuseWhenFull(() => files.store.putBatch({ ...batch, cancelled: true }));
  const rows = (await files.store.listStoreFiles(storeId)).filter((r) => r.batch_id === batchId && r.status === 'in_progress');
  files.ingestion.cancel((s, f) => s === storeId && rows.some((r) => r.file_id === f));
  for (const row of rows) await files.store.putStoreFile({ ...row, status: 'cancelled', last_error: null });
}
