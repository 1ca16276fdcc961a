/**
 * What is stored, and the retention that bounds it (local extensions, not OpenAI's API):
 * - `GET /v1/local/responses` lists every stored response (OpenAI's cursor pagination:
 *   `after`, `limit` 1–100, `order` asc|desc by creation), so a client that lost its ids
 *   can find them again;
 * - `GET /v1/local/storage` totals and the retention policy in force;
 * - `POST /v1/local/storage/prune` applies the policy now (it also runs at start and after
 *   responses finish, at most once a minute: retention.ts); a body `{"retention": {...}}` first puts that
 *   policy in force for the rest of this runtime's life, which is how the app's setting
 *   takes effect without a restart.
 * Shapes: protocol/local-storage.ts.
 */
import { z } from 'zod';
import { RetentionWire, type PruneRequest, type PruneResult, type StorageSummary } from '../../protocol/local-storage';
import { validationError } from '../../protocol/validation-error';
import { cursorPage, pageQuery } from './http/cursor-page';
import { conversationsOf, prune } from '../state/retention';
import type { RetentionPolicy } from '../../protocol/runtime-options';
import type { ServerState } from '../state/server-state';
import { readBodyBytes, readJsonBody } from './http/read-json';
import { fileTotals } from '../files/file-retention';

export async function listStoredResponses(state: ServerState, url: URL): Promise<Response> {
  const query = pageQuery(url);
  const stored = (await state.store.listStored()).map((s) => ({ object: 'local.stored_response' as const, ...s }));
  return cursorPage(stored, query, (after) => `stored response with id '${after}'`);
}

export async function storageSummary(state: ServerState): Promise<Response> {
  const stored = await state.store.listStored();
  const conversations = conversationsOf(stored, new Set(state.runs.keys()));
  const body: StorageSummary = {
    object: 'local.storage',
    responses: stored.length,
    conversations: conversations.length,
    bytes: stored.reduce((sum, s) => sum + s.bytes, 0),
    ...(state.files ? await fileTotals(state.files) : {}),
    retention: retentionWire(state.retention),
  };
  return Response.json(body);
}

export async function pruneNow(state: ServerState, request: Request): Promise<Response> {
  const { retention } = await pruneRequest(request);
  if (retention) state.retention = { maxAgeDays: retention.max_age_days, maxBytes: retention.max_bytes };
  const body: PruneResult = { object: 'local.storage.pruned', ...(await prune(state)), retention: retentionWire(state.retention) };
  return Response.json(body);
}

function retentionWire(policy: RetentionPolicy): RetentionWire {
  return { max_age_days: policy.maxAgeDays, max_bytes: policy.maxBytes };
}

// The mini schema nested in a full one, so a bad body gets the same 400 as every other route.
const pruneRequestSchema = z.strictObject({ retention: z.optional(RetentionWire) });

/** The prune body; a bare POST (no body, no Content-Type) keeps the policy in force. */
async function pruneRequest(request: Request): Promise<PruneRequest> {
  if (!request.headers.has('content-type')) {
    const text = new TextDecoder().decode(await readBodyBytes(request));
    if (text.trim() === '') return {};
    // A body without Content-Type: readJsonBody refuses it (before reading) with its usual 400.
  }
  const body = await readJsonBody(request);
  const parsed = pruneRequestSchema.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error, body);
  return parsed.data;
}
