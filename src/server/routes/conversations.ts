/**
 * The Conversations API, as OpenAI's: `POST /v1/conversations`, `GET`/`POST` (metadata) /
 * `DELETE` on `/v1/conversations/{id}`. Deleting a conversation deletes its items, never the
 * responses that added them (OpenAI's rule).
 */
import { ConversationCreateRequest, ConversationUpdateRequest } from '../../protocol/conversation';
import { newId } from '../../shared/ids';
import type { StoredConversation } from '../../ports/conversation-store';
import { conversationObject } from '../output/conversation-object';
import { conversationNotFound } from '../request/conversation-history';
import { normalizeInput } from '../request/normalize-input';
import type { ServerState } from '../state/server-state';
import { readBody } from './http/read-json';

export async function createConversation(state: ServerState, request: Request): Promise<Response> {
  const body = await readBody(request, ConversationCreateRequest, true);
  const items = await normalizeInput(body.items ?? [], { findItem: (id) => state.store.findItem(id), tools: state.tools, checkCompaction: (sealed, param) => state.compactions.open(sealed, param) });
  const conversation: StoredConversation = { id: newId('conv'), created_at: state.now(), metadata: body.metadata ?? {} };
  await state.store.createConversation(conversation, items);
  return Response.json(conversationObject(conversation));
}

export async function retrieveConversation(state: ServerState, id: string): Promise<Response> {
  const conversation = await state.store.getConversation(id);
  if (!conversation) throw conversationNotFound(id);
  return Response.json(conversationObject(conversation));
}

export async function updateConversation(state: ServerState, id: string, request: Request): Promise<Response> {
  const body = await readBody(request, ConversationUpdateRequest, false);
  const conversation = await state.store.updateConversation(id, body.metadata ?? {});
  if (!conversation) throw conversationNotFound(id);
  return Response.json(conversationObject(conversation));
}

export async function deleteConversation(state: ServerState, id: string): Promise<Response> {
  if (!(await state.store.deleteConversation(id))) throw conversationNotFound(id);
  return Response.json({ id, object: 'conversation.deleted', deleted: true });
}
