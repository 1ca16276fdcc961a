/** The file store's search as tools see it (`ports/vector-search.ts`). */
import type { VectorSearchPort } from '../../ports/vector-search';
import type { FilesState } from './files-state';
import { DEFAULT_HYBRID, searchStores } from './search';

export function vectorSearchOf(files: FilesState): VectorSearchPort {
  return {
    hasStore: async (id) => (await files.store.getVectorStore(id)) !== undefined,
    search: async (storeIds, queries, { hybrid, ...options }) => {
      const stores = [];
      for (const id of storeIds) {
        const store = await files.store.getVectorStore(id);
        if (store) stores.push(store);
      }
      return searchStores(files, stores, queries, { ...options, hybrid: hybrid ?? DEFAULT_HYBRID });
    },
  };
}
