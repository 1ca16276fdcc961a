/**
 * What is stored, and the retention that bounds it (local extensions, not OpenAI's API):
 * - `GET /v1/local/responses` lists every stored response (OpenAI's cursor pagination:
 *   `after`, `limit` 1–100, `order` asc|desc by creation), so a client that lost its ids
 *   can find them again;
 * - `GET /v1/local/storage` totals and the retention policy in force;
 * - `POST /v1/local/storage/prune` applies the policy now (it also runs at start and after
 *   responses finish, at most once a minute).
 */
import { describeError, invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { conversationsOf, unitsToPrune } from '../retention';
import type { ServerState } from '../server-state';

export async function listStoredResponses(state: ServerState, url: URL): Promise<Response> {
  const params = url.searchParams;
  const order = params.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc')
    throw invalidRequest(`Invalid value: '${order}'. Supported values are: 'asc' and 'desc'.`, 'order', Codes.invalidValue);
  const rawLimit = params.get('limit');
  const limit = rawLimit === null ? 20 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw invalidRequest(`Invalid 'limit': expected an integer between 1 and 100, got '${rawLimit}'.`, 'limit', Codes.invalidValue);
  const all = await state.store.listStored();
  if (order === 'desc') all.reverse();
  const after = params.get('after');
  let start = 0;
  if (after !== null) {
    const at = all.findIndex((s) => s.id === after);
    if (at === -1) throw invalidRequest(`Invalid 'after': no stored response with id '${after}'.`, 'after', Codes.invalidValue);
    start = at + 1;
  }
  const data = all.slice(start, start + limit).map((s) => ({ object: 'local.stored_response' as const, ...s }));
  return Response.json({ object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + limit < all.length });
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
  const units = unitsToPrune(stored, state.retention, state.now(), new Set(state.runs.keys()));
  const victims = new Set(units.flatMap((unit) => unit.ids));
  let bytes = 0;
  for (const s of stored) {
    if (!victims.has(s.id) || state.runs.has(s.id)) continue;
    if (await state.store.delete(s.id)) bytes += s.bytes;
  }
  // A conversation goes with its responses (its items would otherwise outlive every response that made them).
  for (const unit of units) if (unit.conversationId) await state.store.deleteConversation(unit.conversationId);
  return { deleted: victims.size, bytes_freed: bytes };
}
