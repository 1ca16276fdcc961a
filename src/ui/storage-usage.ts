/**
 * What the storage view shows: the runtime's stored responses grouped by the app's chats.
 * A response answered in a chat's conversation is the chat's (as are the response ids its
 * turns know, in chats of older versions); a response chained (by `previous_response_id`)
 * to one of them counts for that chat too — retention deletes the whole chain together, so
 * that is the space deleting the chat frees. The rest was created from code on this origin.
 */
import type { StoredResponse } from '../protocol/local-storage';
import type { Conversation } from './saved-chat';

export interface ChatUsage {
  conversationId: string;
  title: string;
  responses: number;
  bytes: number;
  /** Unix seconds: the newest of its stored responses (retention goes by this, oldest first). */
  lastUsed: number;
}

export interface StorageUsage {
  responses: number;
  bytes: number;
  /** Chats with something stored, biggest first. */
  chats: ChatUsage[];
  /** Responses of no chat in this app (created from code). */
  other: { responses: number; bytes: number };
}

export function storageUsage(stored: readonly StoredResponse[], chats: readonly Conversation[]): StorageUsage {
  const chatOfResponse = new Map<string, Conversation>();
  for (const chat of chats) for (const turn of chat.turns) if (turn.responseId) chatOfResponse.set(turn.responseId, chat);
  // A chat is a conversation: every response answered in it is the chat's.
  const chatById = new Map(chats.map((chat) => [chat.id, chat]));
  for (const s of stored) {
    const chat = s.conversation_id ? chatById.get(s.conversation_id) : undefined;
    if (chat) chatOfResponse.set(s.id, chat);
  }
  const byId = new Map(stored.map((s) => [s.id, s]));
  const owner = new Map<string, Conversation | null>();
  const ownerOf = (start: StoredResponse): Conversation | null => {
    // Iterative walk up the chain (chains can be thousands long), remembering every step.
    const path: string[] = [];
    const seen = new Set<string>();
    let at: StoredResponse | undefined = start;
    let found: Conversation | null = null;
    while (at && !seen.has(at.id)) {
      if (owner.has(at.id)) {
        found = owner.get(at.id)!;
        break;
      }
      seen.add(at.id);
      path.push(at.id);
      const chat = chatOfResponse.get(at.id);
      if (chat) {
        found = chat;
        break;
      }
      at = at.previous_response_id ? byId.get(at.previous_response_id) : undefined;
    }
    for (const id of path) owner.set(id, found);
    return found;
  };

  const usage = new Map<string, ChatUsage>();
  const other = { responses: 0, bytes: 0 };
  for (const response of stored) {
    const chat = ownerOf(response);
    if (!chat) {
      other.responses++;
      other.bytes += response.bytes;
      continue;
    }
    const entry = usage.get(chat.id) ?? { conversationId: chat.id, title: chat.title, responses: 0, bytes: 0, lastUsed: 0 };
    entry.responses++;
    entry.bytes += response.bytes;
    entry.lastUsed = Math.max(entry.lastUsed, response.created_at);
    usage.set(chat.id, entry);
  }
  return {
    responses: stored.length,
    bytes: stored.reduce((sum, s) => sum + s.bytes, 0),
    chats: [...usage.values()].sort((a, b) => b.bytes - a.bytes || b.lastUsed - a.lastUsed),
    other,
  };
}
