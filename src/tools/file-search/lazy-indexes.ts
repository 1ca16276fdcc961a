/**
 * The minisearch indexes, imported at their first use (the first search or ingestion), so a
 * runtime that never searches files does not load minisearch at start.
 */
import type { SearchIndexes } from '../../ports/search-index';

let loaded: Promise<SearchIndexes> | undefined;
const indexes = () => (loaded ??= import('./minisearch-index').then((m) => m.minisearchIndexes));

export const lazyMinisearchIndexes: SearchIndexes = {
  create: async () => (await indexes()).create(),
  restore: async (snapshot) => (await indexes()).restore(snapshot),
};
