/**
 * Ranks deferred tools for a query with the keyword index the file search already uses:
 * minisearch's BM25+ over each tool's name and description, the same term handling (lower
 * case, plural `s` folded), terms joined by OR. Names count more than descriptions; a prefix
 * of a longer word still matches (`weath` finds `weather`), since tool texts are short.
 * Imported at the first search, so a runtime that never searches does not load minisearch.
 */
import MiniSearch from 'minisearch';
import { sStem } from '../file-search/minisearch-index';
import type { DeferredEntry } from './deferred-catalog';

interface Doc {
  id: string;
  name: string;
  text: string;
}

const processTerm = (term: string) => sStem(term.toLowerCase());

/** The keys of the best `limit` entries for `query`, best first; none when no term matches. */
export function rankTools(entries: readonly DeferredEntry[], query: string, limit: number): string[] {
  if (entries.length === 0 || query.trim() === '') return [];
  const index = new MiniSearch<Doc>({ fields: ['name', 'text'], storeFields: [], idField: 'id', processTerm });
  index.addAll(entries.map((e) => ({ id: e.key, name: e.key.replace(/[_-]+/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2'), text: e.text })));
  const hits = index.search(query, { combineWith: 'OR', prefix: (term) => term.length >= 4, fuzzy: false, boost: { name: 2 } });
  return hits.slice(0, limit).map((hit) => String(hit.id));
}
