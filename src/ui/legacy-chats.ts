/**
 * Chats saved by older versions of the app in its own database (`conversations` store of
 * app-db) move onto the server, once: each becomes a conversation with the same title and
 * the turns the model saw — the person's messages (or approval answers) and the answers
 * that stood (completed or incomplete; a stopped or failed one was not in the
 * `previous_response_id` chain either). The answers are `item_reference`s to the stored
 * responses' items, so reasoning and tool calls come along whole; when a response is gone
 * (retention), the chat is migrated with its text alone. A record is deleted only once its
 * conversation exists, so a failed migration is retried at the next start; a Web Lock keeps
 * two tabs from migrating the same chat twice.
 */
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import type { Api } from './api';
import { deleteConversationRecord, loadConversations, type AppDatabase } from './app-db';
import { metadataTitle, SAVED_UPDATED_AT_KEY, TITLE_KEY } from './chat-library';
import { answerText, type Conversation, type Turn } from './saved-chat';

/** OpenAI's limit on items per create/add call. */
const ITEMS_PER_CALL = 20;

function inputOf(turn: Turn): ResponseInputItem {
  return turn.approval
    ? { type: 'mcp_approval_response', approval_request_id: turn.approval.requestId, approve: turn.approval.approve }
    : { type: 'message', role: 'user', content: turn.input };
}

const stood = (turn: Turn) => turn.status === 'completed' || turn.status === 'incomplete';

/** The conversation items of a saved chat; `whole`: its answers by reference to the stored items, else as text. */
export function legacyItems(chat: Conversation, whole: boolean): ResponseInputItem[] {
  return chat.turns.flatMap((turn): ResponseInputItem[] => {
    if (!stood(turn)) return [];
    if (whole && turn.responseId) return [inputOf(turn), ...turn.output.map((item) => ({ type: 'item_reference' as const, id: item.id! }))];
    const text = answerText(turn);
    return [inputOf(turn), ...(text ? [{ type: 'message' as const, role: 'assistant' as const, content: text }] : [])];
  });
}

async function migrateOne(api: Api, chat: Conversation): Promise<void> {
  const metadata = { [TITLE_KEY]: metadataTitle(chat.title), [SAVED_UPDATED_AT_KEY]: String(chat.updatedAt) };
  for (const whole of [true, false]) {
    const items = legacyItems(chat, whole);
    let id: string | null = null;
    try {
      id = (await api.client.conversations.create({ metadata, items: items.slice(0, ITEMS_PER_CALL) })).id;
      for (let at = ITEMS_PER_CALL; at < items.length; at += ITEMS_PER_CALL)
        await api.client.conversations.items.create(id, { items: items.slice(at, at + ITEMS_PER_CALL) });
      return;
    } catch (error) {
      // Half a chat is no chat: remove it, then try with the text alone (a referenced item is gone).
      if (id) await api.client.conversations.delete(id).catch(() => undefined);
      if (!whole) throw error;
    }
  }
}

/** Moves every saved chat onto the server; resolves with how many moved. A chat that fails stays saved (and is logged). */
export async function migrateLegacyChats(api: Api, db: AppDatabase): Promise<number> {
  const run = async () => {
    let moved = 0;
    for (const chat of await loadConversations(db)) {
      // Another tab may have moved it meanwhile.
      if (!(await db.get('conversations', chat.id))) continue;
      try {
        await migrateOne(api, chat);
        await deleteConversationRecord(db, chat.id);
        moved++;
      } catch (error) {
        console.error(`Could not move the saved chat “${chat.title}” to the server; it stays saved and is tried again at the next start.`, error);
      }
    }
    return moved;
  };
  if (typeof navigator !== 'undefined' && navigator.locks) return navigator.locks.request('local-responses-app/migrate-chats', run);
  return run();
}
