/** A page of a vector store's (or a batch's) files, narrowed by `filter` (status). */
import type { StoredStoreFile } from '../../../ports/file-store';
import type { StoreFileStatus } from '../../../protocol/vector-stores';
import { invalidRequest } from '../../../shared/api-error';
import { Codes } from '../../../shared/error-codes';
import { storeFileObject } from '../../files/vector-store-objects';
import { idPage, idPageQuery } from './id-page';

const STATUSES: readonly StoreFileStatus[] = ['in_progress', 'completed', 'failed', 'cancelled'];

export function storeFilesPage(rows: StoredStoreFile[], url: URL): Response {
  const filter = url.searchParams.get('filter');
  if (filter !== null && !STATUSES.includes(filter as StoreFileStatus))
    throw invalidRequest(`Invalid value: '${filter.slice(0, 64)}'. Supported values are: ${STATUSES.map((s) => `'${s}'`).join(', ')}.`, 'filter', Codes.invalidValue);
  const objects = rows.filter((r) => filter === null || r.status === filter).map(storeFileObject);
  return Response.json(idPage(objects, (f) => f.id, idPageQuery(url), 'vector store file'));
}

