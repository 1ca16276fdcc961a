/**
 * The app's chats on the server: one conversation (`conv_…`) per chat, titled by its
 * `metadata.title`, listed by `GET /v1/local/conversations` (the Conversations API has no
 * list endpoint of its own). So the sidebar, a chat's messages and its title live where a
 * developer's code can read and continue them, and the app keeps no copy of its own.
 */
import { APIError } from 'openai';
import type { ConversationItem } from 'openai/resources/conversations/items';
import type { Api, LocalConversation } from './api';
import { turnsFromItems } from './conversation-turns';
import { newApprovalTurn, newTurn, titleFrom, type Conversation, type Turn } from './saved-chat';

/** The metadata key of a chat's title (what the sidebar shows). */
export const TITLE_KEY = 'title';
/** Set on chats migrated from the app's old database: when they were last used there (ms), so they keep their place. */
export const SAVED_UPDATED_AT_KEY = 'saved_updated_at';
/** OpenAI's limit on a metadata value. */
const MAX_METADATA_VALUE = 512;

export function metadataTitle(title: string): string {
  return title.slice(0, MAX_METADATA_VALUE);
}

/** A listed conversation as a chat whose turns are not read yet. */
export function chatFromConversation(c: LocalConversation): Conversation {
  const saved = Number(c.metadata[SAVED_UPDATED_AT_KEY]);
  // A migrated chat not used since keeps the place it had in the old list.
  const usedSince = c.updated_at > c.created_at;
  return {
    id: c.id,
    title: c.metadata[TITLE_KEY]?.trim() || 'Untitled conversation',
    createdAt: c.created_at * 1000,
    updatedAt: !usedSince && Number.isFinite(saved) ? saved : c.updated_at * 1000,
    turns: [],
    metadata: c.metadata,
    opened: false,
    runningResponseId: c.running_response_id,
  };
}

/** Every chat, most recently used first. */
export async function listChats(api: Api): Promise<Conversation[]> {
  const chats = (await api.conversations()).map(chatFromConversation);
  return chats.sort((a, b) => b.updatedAt - a.updatedAt);
}

/** The chat's turns, from its conversation's items (every page, oldest first). */
export async function readTurns(api: Api, chat: Conversation): Promise<Turn[]> {
  const items: ConversationItem[] = [];
  // The interpreter's logs and images show in its card, as in a live answer.
  for await (const item of api.client.conversations.items.list(chat.id, { order: 'asc', limit: 100, include: ['code_interpreter_call.outputs', 'web_search_call.action.sources'] })) items.push(item);
  return turnsFromItems(items, chat.updatedAt);
}

/** A new chat: its conversation, titled after the first message. */
export async function createChat(api: Api, firstMessage: string, now: number): Promise<Conversation> {
  const title = titleFrom(firstMessage);
  const metadata = { [TITLE_KEY]: metadataTitle(title) };
  const created = await api.client.conversations.create({ metadata });
  return { id: created.id, title, createdAt: now, updatedAt: now, turns: [], metadata, opened: true, runningResponseId: null };
}

/** Renames: the conversation's metadata with the new title (its other keys kept: an update replaces the metadata). */
export async function renameChat(api: Api, chat: Conversation, title: string): Promise<Record<string, string>> {
  const metadata = { ...chat.metadata, [TITLE_KEY]: metadataTitle(title) };
  await api.client.conversations.update(chat.id, { metadata });
  return metadata;
}

/** Deleting a response that is already gone is fine; anything else is said in the console. */
export async function deleteResponseQuietly(api: Api, id: string): Promise<void> {
  try {
    await api.client.responses.delete(id);
  } catch (error) {
    if (!(error instanceof APIError && error.status === 404)) console.warn(`Could not delete response ${id}`, error);
  }
}

/**
 * Deletes the chat: its conversation, and the stored responses that answered in it. The
 * Conversations API keeps responses when their conversation goes (OpenAI's rule); a person
 * deleting a chat means its text to be gone, so the app deletes them itself.
 */
export async function deleteChat(api: Api, id: string, vectorStoreId?: string): Promise<void> {
  const responses = (await api.storedResponses()).filter((s) => s.conversation_id === id);
  await Promise.all(responses.map((s) => deleteResponseQuietly(api, s.id)));
  // The chat's files go with it: its vector store, and the files uploaded into it.
  if (vectorStoreId) await deleteChatFiles(api, vectorStoreId);
  try {
    await api.client.conversations.delete(id);
  } catch (error) {
    if (!(error instanceof APIError && error.status === 404)) throw error;
  }
}

/** Removes items from the conversation (a replaced last turn); one already gone is fine. */
export async function deleteItems(api: Api, conversationId: string, itemIds: readonly string[]): Promise<void> {
  for (const itemId of itemIds) {
    try {
      await api.client.conversations.items.delete(itemId, { conversation_id: conversationId });
    } catch (error) {
      if (!(error instanceof APIError && error.status === 404)) throw error;
    }
  }
}

/**
 * The turn of a response still running in the chat (started before a reload, or in another
 * tab): its input is the response's, as it joins the conversation only when it finishes.
 * Null when it is no longer running.
 */
export async function runningTurn(api: Api, responseId: string): Promise<Turn | null> {
  const [response, inputs] = await Promise.all([api.client.responses.retrieve(responseId), api.client.responses.inputItems.list(responseId, { order: 'asc' })]);
  // Finished since it was listed: it is in the conversation's items now (or never joins).
  if (response.status !== 'queued' && response.status !== 'in_progress') return null;
  const startedAt = response.created_at * 1000;
  const first = inputs.data[0];
  let turn = newTurn('', response.model, startedAt);
  if (first?.type === 'message') {
    turn = newTurn(first.content.map((c) => ('text' in c ? c.text : '')).join('\n'), response.model, startedAt);
  } else if (first?.type === 'mcp_approval_response') {
    turn = newApprovalTurn({ requestId: first.approval_request_id, approve: first.approve, server: 'an MCP server', tool: 'a tool' }, response.model, startedAt);
  }
  return { ...turn, responseId, status: 'in_progress' };
}

/** Deletes a chat's vector store and the files in it (each uploaded for this chat). */
async function deleteChatFiles(api: Api, vectorStoreId: string): Promise<void> {
  const fileIds: string[] = [];
  try {
    for await (const row of api.client.vectorStores.files.list(vectorStoreId, { limit: 100 })) fileIds.push(row.id);
    await api.client.vectorStores.delete(vectorStoreId);
  } catch (error) {
    if (!(error instanceof APIError && error.status === 404)) throw error;
  }
  for (const fileId of fileIds) await api.client.files.delete(fileId).catch(() => undefined);
}
