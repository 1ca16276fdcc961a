/**
 * The Conversations API, as OpenAI's: `POST /v1/conversations`, `GET`/`POST` (metadata) /
 * `DELETE` on `/v1/conversations/{id}`. Deleting a conversation deletes its items, never the
 * responses that added them (OpenAI's rule).
 */
import { ConversationCreateRequest, ConversationUpdateRequest, type ConversationObject } from '../../protocol/conversation';
import { validationError } from '../../protocol/validation-error';
import { invalidRequest, notFound } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { newId } from '../../shared/ids';
import type { StoredConversation } from '../../store/conversation-store';
import { normalizeInput } from '../normalize-input';
import type { ServerState } from '../server-state';
import { readJsonBody, readOptionalJsonBody } from './read-json';

export function conversationNotFound(id: string, param: string | null = null) {
  return notFound(`Conversation with id '${id}' not found.`, param, null);
}

export function conversationObject(conversation: StoredConversation): ConversationObject {
  return { id: conversation.id, object: 'conversation', created_at: conversation.created_at, metadata: conversation.metadata };
}

/** A JSON object body parsed with `schema`, or OpenAI's 400. An empty body counts as `{}`. */
export async function readBody<T>(request: Request, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: import('zod').ZodError } }, emptyOk: boolean): Promise<T> {
  const sent = emptyOk ? await readOptionalJsonBody(request) : await readJsonBody(request);
  const body = sent === undefined ? {} : sent;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('The request body must be a JSON object.', null, Codes.invalidType);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error, body);
  return parsed.data;
}

export async function createConversation(state: ServerState, request: Request): Promise<Response> {
  const body = await readBody(request, ConversationCreateRequest, true);
  const items = await normalizeInput(body.items ?? [], (id) => state.store.findItem(id), undefined, (sealed, param) => state.compactions.open(sealed, param));
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
