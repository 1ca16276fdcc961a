/** `GET /v1/responses/{id}/input_items`: OpenAI's cursor pagination over a response's input. */
import type { StoredItem } from '../../protocol/output-items';
import { invalidRequest, notFound } from '../../shared/api-error';
import type { ServerState } from '../server-state';
import { Codes } from '../../shared/error-codes';

export async function listInputItems(state: ServerState, id: string, url: URL): Promise<Response> {
  const params = url.searchParams;
  const order = params.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc')
    throw invalidRequest(`Invalid value: '${order}'. Supported values are: 'asc' and 'desc'.`, 'order', Codes.invalidValue);
  const rawLimit = params.get('limit');
  const limit = rawLimit === null ? 20 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw invalidRequest(`Invalid 'limit': expected an integer between 1 and 100, got '${rawLimit}'.`, 'limit', Codes.invalidValue);
  const unsupportedInclude = params.getAll('include').find((v) => v !== 'code_interpreter_call.outputs');
  if (unsupportedInclude !== undefined)
    throw invalidRequest(`Invalid value: '${unsupportedInclude}'. Supported values are: 'code_interpreter_call.outputs'.`, 'include', Codes.invalidValue);

  if (!state.runs.has(id) && !(await state.store.get(id))) throw notFound(`Response with id '${id}' not found.`, null, null);
  let items: StoredItem[] = await state.store.inputItems(id);
  if (order === 'desc') items = [...items].reverse();

  const after = params.get('after');
  if (after !== null) {
    const at = items.findIndex((item) => item.id === after);
    if (at === -1) throw invalidRequest(`Invalid 'after': no input item with id '${after}' in this response.`, 'after', Codes.invalidValue);
    items = items.slice(at + 1);
  }
  const page = items.slice(0, limit);
  return Response.json({
    object: 'list',
    data: page,
    first_id: page[0]?.id ?? null,
    last_id: page.at(-1)?.id ?? null,
    has_more: items.length > limit,
  });
}
