/** The query of OpenAI's cursor-paginated item lists: `order`, `limit` (1–100), `after`, `include`. */
import { invalidRequest } from '../../../shared/api-error';
import { Codes } from '../../../shared/error-codes';
import { includesFromQuery, type Includes } from '../../output/include-filter';
import { pageQuery, type PageQuery } from './cursor-page';
import type { ToolRegistry } from '../../state/tool-registry';

export interface ListQuery extends PageQuery {
  include: Includes;
}

export function itemListQuery(url: URL, tools: ToolRegistry): ListQuery {
  return { ...pageQuery(url), include: itemIncludes(url, tools) };
}

/** `include` of an item read: the builtin tools' values and logprobs; a value the runtime cannot honour is a 400 naming it. */
export function itemIncludes(url: URL, tools: ToolRegistry): Includes {
  const supported = [...tools.includeValues, 'message.output_text.logprobs'];
  const include = includesFromQuery(url);
  const unsupported = [...include].find((v) => !supported.includes(v));
  if (unsupported !== undefined)
    throw invalidRequest(`Invalid value: '${unsupported}'. Supported values are: ${supported.map((v) => `'${v}'`).join(', ')}.`, 'include', Codes.invalidValue);
  return include;
}
