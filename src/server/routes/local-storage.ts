/**
 * What is stored, and the retention that bounds it (local extensions, not OpenAI's API):
 * - `GET /v1/local/responses` lists every stored response (OpenAI's cursor pagination:
 *   `after`, `limit` 1–100, `order` asc|desc by creation), so a client that lost its ids
 *   can find them again;
 * - `GET /v1/local/storage` totals and the retention policy in force;
 * - `POST /v1/local/storage/prune` applies the policy now (it also runs at start and after
 *   responses finish, at most once a minute).
 */
import { describeError } from '../../shared/api-error';
import { cursorPage, pageQuery } from './cursor-page';
import { conversationsOf, responsesToPrune } from '../retention';
import type { ServerState } from '../server-state';

export async function listStoredResponses(state: ServerState, url: URL): Promise<Response> {
  const query = pageQuery(url);
  const stored = (await state.store.listStored()).map((s) => ({ object: 'local.stored_response' as const, ...s }));
  return cursorPage(stored, query, (after) => `stored response with id '${after}'`);
}

export async function storageSummary(state: ServerState): Promise<Response> {
  const stored = await state.store.listStored();
  const conversations = conversationsOf(stored, new Set(state.runs.keys()));
  return Response.json({
    object: 'local.storage',
    responses: stored.length,
    conversations: conversations.length,
    bytes: stored.reduce((sum, s) => sum + s.bytes, 0),
    retention: { max_age_days: state.retention.maxAgeDays, max_bytes: state.retention.maxBytes },
  });
}

export async function pruneNow(state: ServerState): Promise<Response> {
  return Response.json({ object: 'local.storage.pruned', ...(await prune(state)) });
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
  const victims = new Set(responsesToPrune(stored, state.retention, state.now(), new Set(state.runs.keys())));
  let bytes = 0;
  for (const s of stored) {
    if (!victims.has(s.id) || state.runs.has(s.id)) continue;
    if (await state.store.delete(s.id)) bytes += s.bytes;
  }
  return { deleted: victims.size, bytes_freed: bytes };
}
