/**
 * OpenAI's cursor pages with `before` as well as `after` (the Files and Vector Stores lists):
 * `order` (default desc), `limit` 1–100 (default 20; the Files list allows up to 10,000).
 */
import { invalidRequest } from '../../../shared/api-error';
import { Codes } from '../../../shared/error-codes';
import { pageQuery, type PageQuery } from './cursor-page';

export interface IdPageQuery extends PageQuery {
  before: string | null;
}

export function idPageQuery(url: URL, maxLimit = 100): IdPageQuery {
  const limit = url.searchParams.get('limit');
  // pageQuery checks 1–100; a larger allowed limit is checked here.
  const base = maxLimit > 100 && limit !== null && Number(limit) > 100 ? pageQuery(withLimit(url, '100')) : pageQuery(url);
  if (maxLimit > 100 && limit !== null && Number(limit) > 100) {
    const n = Number(limit);
    if (!Number.isInteger(n) || n > maxLimit) throw invalidRequest(`Invalid 'limit': expected an integer between 1 and ${maxLimit}, got '${limit}'.`, 'limit', Codes.invalidValue);
    base.limit = n;
  }
  return { ...base, before: url.searchParams.get('before') };
}

function withLimit(url: URL, limit: string): URL {
  const copy = new URL(url);
  copy.searchParams.set('limit', limit);
  return copy;
}

/** The page of `items` (oldest first) the query asks for, as `{object: 'list', data, first_id, last_id, has_more}`. */
export function idPage<T>(items: readonly T[], idOf: (item: T) => string, query: IdPageQuery, what: string): { object: 'list'; data: T[]; first_id: string | null; last_id: string | null; has_more: boolean } {
  let ordered = query.order === 'desc' ? [...items].reverse() : [...items];
  if (query.after !== null) {
    const at = ordered.findIndex((item) => idOf(item) === query.after);
    if (at === -1) throw invalidRequest(`Invalid 'after': no ${what} with id '${query.after}'.`, 'after', Codes.invalidValue);
    ordered = ordered.slice(at + 1);
  }
  if (query.before !== null) {
    const at = ordered.findIndex((item) => idOf(item) === query.before);
    if (at === -1) throw invalidRequest(`Invalid 'before': no ${what} with id '${query.before}'.`, 'before', Codes.invalidValue);
    const start = Math.max(0, at - query.limit);
    return page(ordered.slice(start, at), idOf, query.limit, start > 0);
  }
  return page(ordered, idOf, query.limit, ordered.length > query.limit);
}

function page<T>(ordered: readonly T[], idOf: (item: T) => string, limit: number, hasMore: boolean) {
  const data = ordered.slice(0, limit);
  return { object: 'list' as const, data, first_id: data.length ? idOf(data[0]!) : null, last_id: data.length ? idOf(data.at(-1)!) : null, has_more: hasMore };
}
