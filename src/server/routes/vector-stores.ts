/**
 * The Vector Stores API, as OpenAI's: create (with `file_ids`, `chunking_strategy`, `metadata`,
 * `expires_after`), list, retrieve, update, delete, and `POST /v1/vector_stores/{id}/search`.
 * A store records the embedding model its chunks are embedded with (the runtime's
 * `fileSearch.embeddingModel` when it is made; none: keyword search only).
 */
import type { StoredVectorStore } from '../../ports/file-store';
import { SearchRequest, VectorStoreCreateRequest, VectorStoreUpdateRequest, type SearchResultsPage } from '../../protocol/vector-stores';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { newId } from '../../shared/ids';
import { DEFAULT_HYBRID, searchStores } from '../files/search';
import { vectorStoreObject } from '../files/vector-store-objects';
import { attachFiles, checkFiles, deleteStore, refuseWhenFull, requireStore } from '../files/vector-store-ops';
import { filesOf, type FilesState } from '../files/files-state';
import type { ServerState } from '../state/server-state';
import { idPage, idPageQuery } from './http/id-page';
import { withPollAfter } from './http/poll-after';
import { readBody } from './http/read-json';

async function storeAnswer(files: FilesState, store: StoredVectorStore): Promise<Response> {
  return withPollAfter(vectorStoreObject(store, await files.store.listStoreFiles(store.id), files.now()), files.pollAfterMs);
}

export async function createVectorStore(state: ServerState, request: Request): Promise<Response> {
  const files = filesOf(state);
  const body = await readBody(request, VectorStoreCreateRequest, true);
  const fileIds = body.file_ids ?? [];
  if (body.chunking_strategy && fileIds.length === 0)
    throw invalidRequest("'chunking_strategy' is only applicable if 'file_ids' is non-empty.", 'chunking_strategy', Codes.invalidValue);
  const attachments = fileIds.map((fileId) => ({ fileId, chunking: body.chunking_strategy }));
  await checkFiles(files, attachments, (i) => `file_ids[${i}]`);
  const now = files.now();
  const model = files.embeddingModel ? files.embedder(files.embeddingModel) : undefined;
  const store: StoredVectorStore = {
    id: newId('vs'),
    name: body.name ?? '',
    description: body.description ?? null,
    created_at: now,
    last_active_at: now,
    metadata: body.metadata ?? null,
    expires_after: body.expires_after ?? null,
    embedder: model ? { model: model.info.id, dimensions: model.info.dimensions } : null,
    stored_at: performance.timeOrigin + performance.now(),
  };
  await refuseWhenFull(() => files.store.putVectorStore(store));
  await attachFiles(files, store.id, attachments, null);
  return storeAnswer(files, store);
}

export async function listVectorStores(state: ServerState, url: URL): Promise<Response> {
  const files = filesOf(state);
  const stores = await files.store.listVectorStores();
  const objects = await Promise.all(stores.map(async (s) => vectorStoreObject(s, await files.store.listStoreFiles(s.id), files.now())));
  return Response.json(idPage(objects, (s) => s.id, idPageQuery(url), 'vector store'));
}

export async function retrieveVectorStore(state: ServerState, id: string): Promise<Response> {
  const files = filesOf(state);
  return storeAnswer(files, await requireStore(files, id));
}

export async function updateVectorStore(state: ServerState, id: string, request: Request): Promise<Response> {
  const files = filesOf(state);
  const body = await readBody(request, VectorStoreUpdateRequest, true);
  const store = await requireStore(files, id);
  const updated: StoredVectorStore = {
    ...store,
    ...(body.name !== undefined ? { name: body.name ?? '' } : {}),
    ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
    ...(body.expires_after !== undefined ? { expires_after: body.expires_after } : {}),
  };
  await refuseWhenFull(() => files.store.putVectorStore(updated));
  return storeAnswer(files, updated);
}

export async function deleteVectorStore(state: ServerState, id: string): Promise<Response> {
  const files = filesOf(state);
  await requireStore(files, id);
  await deleteStore(files, id);
  return Response.json({ id, object: 'vector_store.deleted', deleted: true });
}

export async function searchVectorStore(state: ServerState, id: string, request: Request): Promise<Response> {
  const files = filesOf(state);
  const body = await readBody(request, SearchRequest, false);
  if (body.rewrite_query === true)
    throw invalidRequest("Unsupported parameter: 'rewrite_query'. The local runtime searches for the query as given; send rewrite_query: false or leave it out.", 'rewrite_query', Codes.unsupportedParameter);
  const store = await requireStore(files, id);
  const queries = typeof body.query === 'string' ? [body.query] : body.query;
  const results = await searchStores(files, [store], queries, {
    maxResults: body.max_num_results ?? 10,
    filters: body.filters ?? null,
    scoreThreshold: body.ranking_options?.score_threshold ?? 0,
    hybrid: body.ranking_options?.hybrid_search ?? DEFAULT_HYBRID,
    signal: request.signal,
  });
  const page: SearchResultsPage = {
    object: 'vector_store.search_results.page',
    search_query: queries,
    data: results.map(({ file_id, filename, score, attributes, content }) => ({ file_id, filename, score, attributes, content })),
    has_more: false,
    next_page: null,
  };
  return Response.json(page);
}
