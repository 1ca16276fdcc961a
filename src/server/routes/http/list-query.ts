/** The query of OpenAI's cursor-paginated item lists: `order`, `limit` (1–100), `after`, `include`. */
import { invalidRequest } from '../../../shared/api-error';
import { Codes } from '../../../shared/error-codes';
import { includesFromQuery, type Includes } from '../../output/include-filter';
import { pageQuery, type PageQuery } from './cursor-page';

export interface ListQuery extends PageQuery {
  include: Includes;
}

/** Item `include` values this runtime can honour. */
const ITEM_INCLUDES = new Set(['code_interpreter_call.outputs', 'message.output_text.logprobs', 'file_search_call.results']);

export function itemListQuery(url: URL): ListQuery {
  return { ...pageQuery(url), include: itemIncludes(url) };
}

/** `include` of an item read; a value the runtime cannot honour is a 400 naming it. */
export function itemIncludes(url: URL): Includes {
  const include = includesFromQuery(url);
  const unsupported = [...include].find((v) => !ITEM_INCLUDES.has(v));
  if (unsupported !== undefined)
    throw invalidRequest(`Invalid value: '${unsupported}'. Supported values are: ${[...ITEM_INCLUDES].map((v) => `'${v}'`).join(', ')}.`, 'include', Codes.invalidValue);
  return include;
}
