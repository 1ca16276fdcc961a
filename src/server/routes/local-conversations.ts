/**
 * `GET /v1/local/conversations`: every stored conversation, for a client that must list
 * them (the app's sidebar). OpenAI's API has no such endpoint, so it lives under
 * `/v1/local/` with the other local extensions, answers OpenAI's `conversation` objects
 * (plus `updated_at` and `running_response_id`) and pages like OpenAI's lists
 * (cursor-page.ts). Default order desc: the most recently used first.
 * Shapes: protocol/local-conversations.ts.
 */
import type { LocalConversation } from '../../protocol/local-conversations';
import type { ServerState } from '../state/server-state';
import { cursorPage, pageQuery } from './http/cursor-page';

export async function listLocalConversations(state: ServerState, url: URL): Promise<Response> {
  const query = pageQuery(url);
  const [conversations, stored] = await Promise.all([state.store.listConversations(), state.store.listStored()]);
  // listStored is oldest first: the last response seen of a conversation is its newest.
  const lastUsed = new Map<string, number>();
  const running = new Map<string, string>();
  for (const s of stored) {
    if (s.conversation_id === null) continue;
    lastUsed.set(s.conversation_id, Math.max(lastUsed.get(s.conversation_id) ?? 0, s.created_at));
    if (s.status === 'queued' || s.status === 'in_progress') running.set(s.conversation_id, s.id);
  }
  const entries: LocalConversation[] = conversations.map((c) => ({
    id: c.id,
    object: 'conversation',
    created_at: c.created_at,
    metadata: c.metadata,
    updated_at: Math.max(c.created_at, lastUsed.get(c.id) ?? 0),
    running_response_id: running.get(c.id) ?? null,
  }));
  // Oldest activity first (cursorPage reverses for desc); ties by id, so pages are stable.
  entries.sort((a, b) => a.updated_at - b.updated_at || a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return cursorPage(entries, query, (after) => `conversation with id '${after}'`);
}
