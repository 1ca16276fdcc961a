/**
 * File batches, as OpenAI's: attach many files at once (`file_ids`, or `files` each with its
 * own attributes and chunking), retrieve (status and `file_counts`), cancel, list its files.
 */
import type { StoredBatch } from '../../ports/file-store';
import { BatchCreateRequest } from '../../protocol/vector-stores';
import { invalidRequest, notFound } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { newId } from '../../shared/ids';
import { batchObject } from '../files/vector-store-objects';
import { attachFiles, cancelBatch, checkFiles, refuseWhenFull, requireStore } from '../files/vector-store-ops';
import { filesOf, type FilesState } from '../files/files-state';
import type { ServerState } from '../state/server-state';
import { withPollAfter } from './http/poll-after';
import { readBody } from './http/read-json';
import { storeFilesPage } from './http/store-files-page';

async function requireBatch(files: FilesState, storeId: string, batchId: string): Promise<StoredBatch> {
  await requireStore(files, storeId);
  const batch = await files.store.getBatch(batchId);
  if (!batch || batch.vector_store_id !== storeId) throw notFound(`No file batch found with id '${batchId}' in vector store '${storeId}'.`, null, Codes.fileBatchNotFound);
  return batch;
}

async function batchAnswer(files: FilesState, batch: StoredBatch): Promise<Response> {
  return withPollAfter(batchObject(batch, await files.store.listStoreFiles(batch.vector_store_id)), files.pollAfterMs);
}

export async function createFileBatch(state: ServerState, storeId: string, request: Request): Promise<Response> {
  const files = filesOf(state);
  const body = await readBody(request, BatchCreateRequest, false);
  if (body.file_ids !== undefined && body.files !== undefined)
    throw invalidRequest("'file_ids' and 'files' are mutually exclusive: send one of them.", 'files', Codes.mutuallyExclusiveParameters);
  if (body.file_ids === undefined && body.files === undefined) throw invalidRequest("Missing required parameter: 'file_ids' (or 'files').", 'file_ids', Codes.missingRequiredParameter);
  await requireStore(files, storeId);
  const attachments = body.files
    ? body.files.map((f) => ({ fileId: f.file_id, attributes: f.attributes, chunking: f.chunking_strategy }))
    : body.file_ids!.map((fileId) => ({ fileId, attributes: body.attributes, chunking: body.chunking_strategy }));
  const seen = new Set<string>();
  const unique = attachments.filter((a) => !seen.has(a.fileId) && seen.add(a.fileId));
  await checkFiles(files, unique, (i) => (body.files ? `files[${i}].file_id` : `file_ids[${i}]`));
  const batch: StoredBatch = { id: newId('vsfb'), vector_store_id: storeId, created_at: files.now(), cancelled: false };
  await refuseWhenFull(() => files.store.putBatch(batch));
  await attachFiles(files, storeId, unique, batch.id);
  return batchAnswer(files, batch);
}

export async function retrieveFileBatch(state: ServerState, storeId: string, batchId: string): Promise<Response> {
  const files = filesOf(state);
  return batchAnswer(files, await requireBatch(files, storeId, batchId));
}

export async function cancelFileBatch(state: ServerState, storeId: string, batchId: string): Promise<Response> {
  const files = filesOf(state);
  await requireBatch(files, storeId, batchId);
  await cancelBatch(files, storeId, batchId);
  return batchAnswer(files, await requireBatch(files, storeId, batchId));
}

export async function listBatchFiles(state: ServerState, storeId: string, batchId: string, url: URL): Promise<Response> {
  const files = filesOf(state);
  await requireBatch(files, storeId, batchId);
  return storeFilesPage((await files.store.listStoreFiles(storeId)).filter((r) => r.batch_id === batchId), url);
}
