/**
 * OpenAI's cursor pagination, as its list endpoints answer it: `order` (asc|desc, default
 * desc), `limit` (1–100, default 20) and `after` (an id from the previous page), answered
 * as `{object: 'list', data, first_id, last_id, has_more}`.
 */
import { invalidRequest } from '../../../shared/api-error';
import { Codes } from '../../../shared/error-codes';

export interface PageQuery {
  order: 'asc' | 'desc';
  limit: number;
  after: string | null;
}

export function pageQuery(url: URL): PageQuery {
  const params = url.searchParams;
  const order = params.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc')
    throw invalidRequest(`Invalid value: '${order}'. Supported values are: 'asc' and 'desc'.`, 'order', Codes.invalidValue);
  const rawLimit = params.get('limit');
  const limit = rawLimit === null ? 20 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw invalidRequest(`Invalid 'limit': expected an integer between 1 and 100, got '${rawLimit}'.`, 'limit', Codes.invalidValue);
  return { order, limit, after: params.get('after') };
}

/**
 * The page of `items` (oldest first) that `query` asks for; `what` names the items in the
 * error for an unknown `after` (e.g. "input item … in this response").
 */
export function cursorPage<T extends { id: string }>(items: readonly T[], query: PageQuery, what: (id: string) => string): Response {
  let ordered = query.order === 'desc' ? [...items].reverse() : [...items];
  if (query.after !== null) {
    const at = ordered.findIndex((item) => item.id === query.after);
    if (at === -1) throw invalidRequest(`Invalid 'after': no ${what(query.after)}.`, 'after', Codes.invalidValue);
    ordered = ordered.slice(at + 1);
  }
  const data = ordered.slice(0, query.limit);
  return Response.json({ object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: ordered.length > query.limit });
}
