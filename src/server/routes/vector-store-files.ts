/**
 * A vector store's files, as OpenAI's: attach (`file_id`, `attributes`, `chunking_strategy`),
 * list (`filter` by status, cursor page), retrieve, update `attributes`, detach (the file
 * itself stays), and `GET …/files/{id}/content`: the file's parsed text, one page.
 */
import { StoreFileCreateRequest, StoreFileUpdateRequest } from '../../protocol/vector-stores';
import { notFound } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { storeFileObject } from '../files/vector-store-objects';
import { attachFiles, checkFiles, detachFile, refuseWhenFull, requireStore } from '../files/vector-store-ops';
import { filesOf, type FilesState } from '../files/files-state';
import type { ServerState } from '../state/server-state';
import { storeFilesPage } from './http/store-files-page';
import { withPollAfter } from './http/poll-after';
import { readBody } from './http/read-json';

async function requireRow(files: FilesState, storeId: string, fileId: string) {
  await requireStore(files, storeId);
  const row = await files.store.getStoreFile(storeId, fileId);
  if (!row) throw notFound(`No file found with id '${fileId}' in vector store '${storeId}'.`, null, Codes.fileNotFound);
  return row;
}

export async function attachStoreFile(state: ServerState, storeId: string, request: Request): Promise<Response> {
  const files = filesOf(state);
  const body = await readBody(request, StoreFileCreateRequest, false);
  await requireStore(files, storeId);
  const attachment = { fileId: body.file_id, attributes: body.attributes, chunking: body.chunking_strategy };
  await checkFiles(files, [attachment], () => 'file_id');
  const [row] = await attachFiles(files, storeId, [attachment], null);
  return withPollAfter(storeFileObject(row!), files.pollAfterMs);
}

export async function listStoreFiles(state: ServerState, storeId: string, url: URL): Promise<Response> {
  const files = filesOf(state);
  await requireStore(files, storeId);
  return storeFilesPage(await files.store.listStoreFiles(storeId), url);
}

export async function retrieveStoreFile(state: ServerState, storeId: string, fileId: string): Promise<Response> {
  const files = filesOf(state);
  return withPollAfter(storeFileObject(await requireRow(files, storeId, fileId)), files.pollAfterMs);
}

export async function updateStoreFile(state: ServerState, storeId: string, fileId: string, request: Request): Promise<Response> {
  const files = filesOf(state);
  const body = await readBody(request, StoreFileUpdateRequest, false);
  const row = await requireRow(files, storeId, fileId);
  const updated = { ...row, attributes: body.attributes };
  await refuseWhenFull(() => files.store.putStoreFile(updated));
  return withPollAfter(storeFileObject(updated), files.pollAfterMs);
}

export async function detachStoreFile(state: ServerState, storeId: string, fileId: string): Promise<Response> {
  const files = filesOf(state);
  await requireRow(files, storeId, fileId);
  await detachFile(files, storeId, fileId);
  return Response.json({ id: fileId, object: 'vector_store.file.deleted', deleted: true });
}

/** The file's parsed text as the store holds it (one page; empty until the file completed). */
export async function storeFileContent(state: ServerState, storeId: string, fileId: string): Promise<Response> {
  const files = filesOf(state);
  const row = await requireRow(files, storeId, fileId);
  const text = row.status === 'completed' ? await files.store.getText(fileId) : undefined;
  return Response.json({ object: 'vector_store.file_content.page', data: text === undefined ? [] : [{ type: 'text', text }], has_more: false, next_page: null });
}
