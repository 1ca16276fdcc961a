/** `GET /v1/responses/{id}/input_items`: OpenAI's cursor pagination over a response's input. */
import { notFound } from '../../shared/api-error';
import type { ServerState } from '../state/server-state';
import { presentItem } from '../output/include-filter';
import { cursorPage } from './http/cursor-page';
import { itemListQuery } from './http/list-query';

export async function listInputItems(state: ServerState, id: string, url: URL): Promise<Response> {
  const query = itemListQuery(url, state.tools);
  if (!state.runs.has(id) && !(await state.store.get(id))) throw notFound(`Response with id '${id}' not found.`, null, null);
  // Replayed tool items (a client that keeps its history) are shown as `include` asks, like output items.
  const items = (await state.store.inputItems(id)).map((item) => presentItem(item, query.include, state.tools));
  return cursorPage(items, query, (after) => `input item with id '${after}' in this response`);
}
