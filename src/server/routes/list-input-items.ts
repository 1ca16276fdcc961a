/** `GET /v1/responses/{id}/input_items`: OpenAI's cursor pagination over a response's input. */
import { invalidRequest, notFound } from '../../shared/api-error';
import type { ServerState } from '../state/server-state';
import { Codes } from '../../shared/error-codes';
import { cursorPage, pageQuery } from './http/cursor-page';

export async function listInputItems(state: ServerState, id: string, url: URL): Promise<Response> {
  const query = pageQuery(url);
  const unsupportedInclude = url.searchParams.getAll('include').find((v) => v !== 'code_interpreter_call.outputs');
  if (unsupportedInclude !== undefined)
    throw invalidRequest(`Invalid value: '${unsupportedInclude}'. Supported values are: 'code_interpreter_call.outputs'.`, 'include', Codes.invalidValue);
  if (!state.runs.has(id) && !(await state.store.get(id))) throw notFound(`Response with id '${id}' not found.`, null, null);
  return cursorPage(await state.store.inputItems(id), query, (after) => `input item with id '${after}' in this response`);
}
