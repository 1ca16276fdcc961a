/**
 * A conversation's items: `POST /v1/conversations/{id}/items` (up to 20 at a time),
 * `GET …/items` (OpenAI's cursor pagination: `after`, `limit`, `order`, `include`), and
 * `GET`/`DELETE …/items/{item_id}` (delete answers with the conversation).
 */
import { TERMINAL_STATUSES } from '../../protocol/response-object';
import { ConversationItemsCreateRequest, type ConversationItemList } from '../../protocol/conversation';
import type { StoredItem } from '../../protocol/output-items';
import { invalidRequest, notFound } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { presentItem, type Includes } from '../output/include-filter';
import { normalizeInput } from '../request/normalize-input';
import type { ServerState } from '../state/server-state';
import type { ToolRegistry } from '../state/tool-registry';
import { conversationObject } from '../output/conversation-object';
import { conversationNotFound } from '../request/conversation-history';
import { readBody } from './http/read-json';
import { itemIncludes, itemListQuery } from './http/list-query';

function itemList(items: StoredItem[], hasMore: boolean, include: Includes, tools: ToolRegistry): ConversationItemList {
  const data = items.map((item) => presentItem(item, include, tools));
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: hasMore };
}

function itemNotFound(itemId: string) {
  return notFound(`Item with id '${itemId}' not found.`, null, Codes.itemNotFound);
}

export async function addConversationItems(state: ServerState, id: string, request: Request, url: URL): Promise<Response> {
  const include = itemIncludes(url, state.tools);
  const body = await readBody(request, ConversationItemsCreateRequest, false);
  if (!(await state.store.getConversation(id))) throw conversationNotFound(id);
  const items = await normalizeInput(body.items, { findItem: (itemId) => state.store.findItem(itemId), tools: state.tools, checkCompaction: (sealed, param) => state.compactions.open(sealed, param) });
  if (!(await state.store.appendConversationItems(id, items))) throw conversationNotFound(id);
  return Response.json(itemList(items, false, include, state.tools));
}

/**
 * A turn of this conversation that a client can already see as finished (its terminal
 * snapshot is in memory) is appended in the transaction that stores that end: wait for it,
 * so a reader never sees a finished turn missing from its conversation.
 */
async function settledTurns(state: ServerState, id: string): Promise<void> {
  const finishing = [...state.runs.values()].filter((run) => run.conversationId === id && TERMINAL_STATUSES.has(run.snapshot().status));
  await Promise.allSettled(finishing.map((run) => run.done));
}

export async function listConversationItems(state: ServerState, id: string, url: URL): Promise<Response> {
  await settledTurns(state, id);
  const query = itemListQuery(url, state.tools);
  if (!(await state.store.getConversation(id))) throw conversationNotFound(id);
  if (query.after !== null && !(await state.store.getConversationItem(id, query.after)))
    throw invalidRequest(`Invalid 'after': no item with id '${query.after}' in this conversation.`, 'after', Codes.invalidValue);
  const page = await state.store.listConversationItems(id, query);
  return Response.json(itemList(page.items, page.has_more, query.include, state.tools));
}

export async function retrieveConversationItem(state: ServerState, id: string, itemId: string, url: URL): Promise<Response> {
  await settledTurns(state, id);
  const include = itemIncludes(url, state.tools);
  if (!(await state.store.getConversation(id))) throw conversationNotFound(id);
  const item = await state.store.getConversationItem(id, itemId);
  if (!item) throw itemNotFound(itemId);
  return Response.json(presentItem(item, include, state.tools));
}

export async function deleteConversationItem(state: ServerState, id: string, itemId: string): Promise<Response> {
  const conversation = await state.store.getConversation(id);
  if (!conversation) throw conversationNotFound(id);
  if (!(await state.store.deleteConversationItem(id, itemId))) throw itemNotFound(itemId);
  return Response.json(conversationObject(conversation));
}
