/** Stored rows as the Vector Stores API answers them: counts, statuses and sizes derived from a store's file rows. */
import type { StoredBatch, StoredStoreFile, StoredVectorStore } from '../../ports/file-store';
import type { FileBatchObject, FileCounts, VectorStoreFileObject, VectorStoreObject } from '../../protocol/vector-stores';

const DAY = 86_400;

export function fileCounts(rows: readonly StoredStoreFile[]): FileCounts {
  const counts: FileCounts = { in_progress: 0, completed: 0, failed: 0, cancelled: 0, total: rows.length };
  for (const row of rows) counts[row.status]++;
  return counts;
}

export function expiresAt(store: StoredVectorStore): number | null {
  return store.expires_after ? store.last_active_at + store.expires_after.days * DAY : null;
}

export function isExpired(store: StoredVectorStore, now: number): boolean {
  const at = expiresAt(store);
  return at !== null && at <= now;
}

export function vectorStoreObject(store: StoredVectorStore, rows: readonly StoredStoreFile[], now: number): VectorStoreObject {
  const counts = fileCounts(rows);
  return {
    id: store.id,
    object: 'vector_store',
    created_at: store.created_at,
    name: store.name,
    description: store.description,
    usage_bytes: rows.reduce((sum, r) => sum + r.usage_bytes, 0),
    file_counts: counts,
    status: isExpired(store, now) ? 'expired' : counts.in_progress > 0 ? 'in_progress' : 'completed',
    expires_after: store.expires_after,
    expires_at: expiresAt(store),
    last_active_at: store.last_active_at,
    metadata: store.metadata,
  };
}

export function storeFileObject(row: StoredStoreFile): VectorStoreFileObject {
  return {
    id: row.file_id,
    object: 'vector_store.file',
    created_at: row.created_at,
    vector_store_id: row.vector_store_id,
    status: row.status,
    last_error: row.last_error,
    usage_bytes: row.usage_bytes,
    attributes: row.attributes,
    chunking_strategy: { type: 'static', static: { ...row.chunking } },
  };
}

/** A batch's files are the store's rows it attached last. */
export function batchObject(batch: StoredBatch, rows: readonly StoredStoreFile[]): FileBatchObject {
  const mine = rows.filter((r) => r.batch_id === batch.id);
  const counts = fileCounts(mine);
  const status = counts.in_progress > 0 ? 'in_progress' : batch.cancelled ? 'cancelled' : counts.total > 0 && counts.failed === counts.total ? 'failed' : 'completed';
  return { id: batch.id, object: 'vector_store.files_batch', created_at: batch.created_at, vector_store_id: batch.vector_store_id, status, file_counts: counts };
}
