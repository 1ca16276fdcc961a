/**
 * How long stored responses are kept. Without a bound, storage only grows (1,000 responses
 * are ~30 MB) and a client that lost its ids can never find them again.
 *
 * The unit that is pruned is a whole conversation — a response together with every response
 * chained to it by `previous_response_id` — oldest last use first. Pruning single old
 * responses would break a long chat still in use (its next turn needs every earlier one).
 * A conversation with a response still running (or stored as running) is never touched.
 * The responses of one Conversations-API conversation (`conversation.id`) are one unit too,
 * with every response chained to them; when that unit is pruned its conversation is deleted
 * with it, so no response of a conversation goes while the conversation stays.
 */
import type { StoredSummary } from '../../ports/response-store';
import type { RetentionPolicy } from '../../protocol/runtime-options';
import { describeError } from '../../shared/api-error';
import type { ServerState } from './server-state';
import { conversationStoreBytes, deleteConversationStores, pruneExpired } from '../files/file-retention';

export interface Conversation {
  /** Oldest first. */
  ids: string[];
  lastUsed: number;
  bytes: number;
  active: boolean;
  /** The Conversations-API conversation these responses belong to, if any. */
  conversationId: string | null;
}

const TERMINAL = new Set(['completed', 'incomplete', 'cancelled', 'failed']);

/**
 * Groups stored responses into `previous_response_id` trees (a missing parent starts a tree).
 * `extraBytes`: what else a conversation holds (its vector stores), by conversation id.
 */
export function conversationsOf(stored: readonly StoredSummary[], running: ReadonlySet<string>, extraBytes: ReadonlyMap<string, number> = new Map()): Conversation[] {
  const byId = new Map(stored.map((s) => [s.id, s]));
  const rootOf = new Map<string, string>();
  const root = (s: StoredSummary): string => {
    const known = rootOf.get(s.id);
    if (known) return known;
    // Walk up iteratively (chains can be thousands long); stop at a missing parent or a cycle.
    const path: string[] = [];
    let at: StoredSummary | undefined = s;
    const seen = new Set<string>();
    while (at && !seen.has(at.id)) {
      seen.add(at.id);
      path.push(at.id);
      const cached = rootOf.get(at.id);
      if (cached) {
        path.pop();
        for (const id of path) rootOf.set(id, cached);
        return cached;
      }
      const parent: StoredSummary | undefined = at.previous_response_id ? byId.get(at.previous_response_id) : undefined;
      if (!parent) break;
      at = parent;
    }
    const top = path.at(-1) ?? s.id;
    for (const id of path) rootOf.set(id, top);
    return top;
  };
  const groups = new Map<string, Conversation>();
  for (const s of stored) {
    const top = byId.get(root(s));
    const conversationId = top?.conversation_id ?? s.conversation_id;
    // Every turn of a conversation is a root of its own (conversation excludes previous_response_id): one key joins them.
    const key = conversationId ? `conversation:${conversationId}` : root(s);
    const group = groups.get(key) ?? { ids: [], lastUsed: 0, bytes: (conversationId && extraBytes.get(conversationId)) || 0, active: false, conversationId };
    group.ids.push(s.id);
    group.lastUsed = Math.max(group.lastUsed, s.created_at);
    group.bytes += s.bytes;
    group.active ||= running.has(s.id) || !TERMINAL.has(s.status);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The response ids to delete under `policy` at `now` (unix seconds). */
export function responsesToPrune(stored: readonly StoredSummary[], policy: RetentionPolicy, now: number, running: ReadonlySet<string>): string[] {
  return unitsToPrune(stored, policy, now, running).flatMap((unit) => unit.ids);
}

/** The units (response trees, conversations) to delete under `policy` at `now`, oldest last use first. */
export function unitsToPrune(stored: readonly StoredSummary[], policy: RetentionPolicy, now: number, running: ReadonlySet<string>, extraBytes?: ReadonlyMap<string, number>): Conversation[] {
  const conversations = conversationsOf(stored, running, extraBytes).sort((a, b) => a.lastUsed - b.lastUsed);
  let total = conversations.reduce((sum, c) => sum + c.bytes, 0);
  const cutoff = policy.maxAgeDays === null ? -Infinity : now - policy.maxAgeDays * 24 * 3600;
  const victims: Conversation[] = [];
  for (const conversation of conversations) {
    if (conversation.active) continue;
    const tooOld = conversation.lastUsed < cutoff;
    const overBudget = policy.maxBytes !== null && total > policy.maxBytes;
    if (!tooOld && !overBudget) continue;
    victims.push(conversation);
    total -= conversation.bytes;
  }
  return victims;
}

const PRUNE_EVERY_MS = 60_000;

/** Applies retention in the background unless it ran within the last minute. */
export function pruneSoon(state: ServerState): void {
  if (Date.now() - state.retentionRanAt < PRUNE_EVERY_MS) return;
  state.retentionRanAt = Date.now();
  void prune(state).catch((err: unknown) => console.error(`Could not apply the retention policy: ${describeError(err)}`));
}

/** Deletes what the retention policy no longer keeps; never a running response. */
export async function prune(state: ServerState): Promise<{ deleted: number; bytes_freed: number }> {
  state.retentionRanAt = Date.now();
  const stored = await state.store.listStored();
  const files = state.files;
  if (files) await pruneExpired(files).catch((err: unknown) => console.error(`Could not delete expired files: ${describeError(err)}`));
  // A conversation's vector stores count in its size, and go with it.
  const extra = files ? await conversationStoreBytes(files) : undefined;
  const units = unitsToPrune(stored, state.retention, state.now(), new Set(state.runs.keys()), extra);
  const victims = new Set(units.flatMap((unit) => unit.ids));
  let bytes = 0;
  for (const s of stored) {
    if (!victims.has(s.id) || state.runs.has(s.id)) continue;
    if (await state.store.delete(s.id)) bytes += s.bytes;
  }
  // A conversation goes with its responses (its items would otherwise outlive every response that made them).
  for (const unit of units) if (unit.conversationId) await state.store.deleteConversation(unit.conversationId);
  const gone = new Set(units.flatMap((unit) => (unit.conversationId ? [unit.conversationId] : [])));
  if (files && gone.size) {
    bytes += [...gone].reduce((sum, id) => sum + (extra?.get(id) ?? 0), 0);
    await deleteConversationStores(files, gone);
  }
  return { deleted: victims.size, bytes_freed: bytes };
}
