/**
 * Files and vector stores under retention and in the storage totals:
 * - a vector store made for a conversation (`metadata.conversation_id`, what the chat app
 *   sets) belongs to it: its size (its files' bytes and its index) counts in the
 *   conversation's, and it goes — with the files no other store holds — when retention
 *   deletes the conversation;
 * - a store past its `expires_after`, and a file past its `expires_at`, go at the next pass;
 * - other files and stores (made from code) are kept until deleted, as on OpenAI.
 */
import type { StoredStoreFile, StoredVectorStore } from '../../ports/file-store';
import { describeError } from '../../shared/api-error';
import type { FilesState } from './files-state';
import { isExpired } from './vector-store-objects';
import { deleteFile, deleteStore } from './vector-store-ops';

/** The metadata key that ties a vector store to a conversation (the chat app's chats). */
export const CONVERSATION_KEY = 'conversation_id';

export interface FileTotals {
  files: number;
  file_bytes: number;
  vector_stores: number;
  vector_store_bytes: number;
}

export async function fileTotals(files: FilesState): Promise<FileTotals> {
  const all = await files.library.list();
  const stores = await files.store.listVectorStores();
  let storeBytes = 0;
  for (const store of stores) storeBytes += (await files.store.listStoreFiles(store.id)).reduce((sum, r) => sum + r.usage_bytes, 0);
  return { files: all.length, file_bytes: all.reduce((sum, f) => sum + f.bytes, 0), vector_stores: stores.length, vector_store_bytes: storeBytes };
}

/** Bytes each conversation's vector stores take (their files and their index), by conversation id. */
export async function conversationStoreBytes(files: FilesState): Promise<Map<string, number>> {
  const bytes = new Map<string, number>();
  for (const store of await files.store.listVectorStores()) {
    const conversationId = store.metadata?.[CONVERSATION_KEY];
    if (!conversationId) continue;
    const rows = await files.store.listStoreFiles(store.id);
    let size = rows.reduce((sum, r) => sum + r.usage_bytes, 0);
    for (const row of rows) size += (await files.library.get(row.file_id))?.bytes ?? 0;
    bytes.set(conversationId, (bytes.get(conversationId) ?? 0) + size);
  }
  return bytes;
}

/** Deletes a store and the files that no other store holds. */
async function deleteWithFiles(files: FilesState, store: StoredVectorStore): Promise<void> {
  const rows: StoredStoreFile[] = await files.store.listStoreFiles(store.id);
  await deleteStore(files, store.id);
  for (const row of rows) if ((await files.store.storesOfFile(row.file_id)).length === 0) await deleteFile(files, row.file_id);
}

/** Deletes the vector stores of the conversations retention deleted. */
export async function deleteConversationStores(files: FilesState, conversationIds: ReadonlySet<string>): Promise<number> {
  let deleted = 0;
  for (const store of await files.store.listVectorStores()) {
    const owner = store.metadata?.[CONVERSATION_KEY];
    if (!owner || !conversationIds.has(owner)) continue;
    await deleteWithFiles(files, store).catch((err: unknown) => console.error(`Could not delete vector store ${store.id}: ${describeError(err)}`));
    deleted++;
  }
  return deleted;
}

/** Deletes expired stores and files. */
export async function pruneExpired(files: FilesState): Promise<void> {
  const now = files.now();
  for (const store of await files.store.listVectorStores()) if (isExpired(store, now)) await deleteStore(files, store.id);
  // `list` leaves expired files out; reading each one deletes it if it expired.
  for (const file of await files.store.listFiles()) if (file.expires_at !== null && file.expires_at <= now) await deleteFile(files, file.id);
}
