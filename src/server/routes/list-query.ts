/** The query of OpenAI's cursor-paginated item lists: `order`, `limit` (1–100), `after`, `include`. */
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { includesFromQuery, type Includes } from '../include-filter';

export interface ListQuery {
  order: 'asc' | 'desc';
  limit: number;
  after: string | null;
  include: Includes;
}

/** Item `include` values this runtime can honour. */
const ITEM_INCLUDES = new Set(['code_interpreter_call.outputs', 'message.output_text.logprobs']);

export function itemListQuery(url: URL): ListQuery {
  const params = url.searchParams;
  const order = params.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc')
    throw invalidRequest(`Invalid value: '${order}'. Supported values are: 'asc' and 'desc'.`, 'order', Codes.invalidValue);
  const rawLimit = params.get('limit');
  const limit = rawLimit === null ? 20 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw invalidRequest(`Invalid 'limit': expected an integer between 1 and 100, got '${rawLimit}'.`, 'limit', Codes.invalidValue);
  return { order, limit, after: params.get('after'), include: itemIncludes(url) };
}

/** `include` of an item read; a value the runtime cannot honour is a 400 naming it. */
export function itemIncludes(url: URL): Includes {
  const include = includesFromQuery(url);
  const unsupported = [...include].find((v) => !ITEM_INCLUDES.has(v));
  if (unsupported !== undefined)
    throw invalidRequest(`Invalid value: '${unsupported}'. Supported values are: ${[...ITEM_INCLUDES].map((v) => `'${v}'`).join(', ')}.`, 'include', Codes.invalidValue);
  return include;
}
