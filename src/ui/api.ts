/**
 * The app's view of the local server: the `openai` SDK for `/v1/responses` and
 * `/v1/models` (the app is a client like any other), plus the `/v1/local/*` extensions for
 * model downloads and storage, which the SDK does not know. Their answers are parsed with the
 * protocol's schemas: one that does not fit is a `LocalApiError` naming the field, here,
 * instead of an `undefined` read somewhere deep in a component.
 */
import OpenAI from 'openai';
import type { core, ZodMiniType } from 'zod/mini';
import { ErrorBody } from '../protocol/error-response';
import { LocalConversationList, type LocalConversation } from '../protocol/local-conversations';
import { LoadEvent, LocalStatus, type LoadProgress } from '../protocol/local-status';
import { PruneResult, StorageSummary, StoredResponseList, type RetentionWire, type StoredResponse } from '../protocol/local-storage';
import { readSse } from '../protocol/sse';
import { createProvidersApi, type ProvidersApi } from './providers-api';
import { createRoutesApi, type RoutesApi } from './routes-api';

export type { LoadProgress, LocalConversation, LocalStatus, PruneResult, StorageSummary, StoredResponse };

/** A `/v1/models` entry with the local fields the server adds. */
export interface ModelEntry {
  id: string;
  created: number;
  owned_by: string;
  engine?: string;
  context_window?: number;
  hidden?: boolean;
  download_bytes?: number;
  vram_bytes?: number;
  capabilities?: { tools?: boolean; reasoning?: boolean };
  chat_format?: string;
  /** Human name, when the server gives one. */
  label?: string;
  /** Served by the engine that suits this device (GPU with WebGPU, CPU otherwise). */
  recommended?: boolean;
  /** `embedding` for models that make vectors (`/v1/embeddings`, file search), not answers. */
  type?: 'chat' | 'embedding';
  /** A route (`engine: "route"`): the device's model and the provider's it decides between per request. */
  route?: { local: string; remote: string; prefer: 'local' | 'remote' };
}

/** An OpenAI-shaped error body turned into something the UI can show. */
export class LocalApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

export interface Api {
  client: OpenAI;
  /** The chat models (embedding models are not for the picker). */
  listModels(): Promise<ModelEntry[]>;
  /** `null` when this runtime has no model management (404): the UI then hides downloads. */
  localStatus(): Promise<LocalStatus | null>;
  /** Downloads and prepares `id`; resolves when ready. Aborting `signal` cancels. */
  loadModel(id: string, onProgress: (p: LoadProgress) => void, signal: AbortSignal): Promise<void>;
  deleteCachedModel(id: string): Promise<void>;
  /** Totals and the retention policy in force. */
  storageSummary(): Promise<StorageSummary>;
  /** Every stored response, oldest first (all pages of `/v1/local/responses`). */
  storedResponses(): Promise<StoredResponse[]>;
  /** Every stored conversation, most recently used first (all pages of `/v1/local/conversations`). */
  conversations(): Promise<LocalConversation[]>;
  /** Applies the retention policy now; with `retention`, that policy is in force from now on. */
  pruneStorage(retention?: RetentionWire): Promise<PruneResult>;
  /** Remote providers (`/v1/local/providers`). */
  providers: ProvidersApi;
  /** Routes: a model of this device, then a provider's, under one name (`/v1/local/routes`). */
  routes: RoutesApi;
}

/** One zod issue in words (zod's mini build carries no messages, only the facts). */
function describeIssue(issue: core.$ZodIssue): string {
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'the answer';
  const oneOf = (values: readonly unknown[]) => `expected one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
  switch (issue.code) {
    case 'invalid_type':
      return `${where}: expected ${issue.expected}`;
    case 'invalid_value':
      return `${where}: ${oneOf(issue.values)}`;
    case 'invalid_union':
      return `${where}: ${'options' in issue && issue.options ? oneOf(issue.options) : 'matches none of the expected shapes'}`;
    case 'too_big':
      return `${where}: must be at most ${String(issue.maximum)}`;
    case 'too_small':
      return `${where}: must be at least ${String(issue.minimum)}`;
    default:
      return `${where}: ${issue.code}`;
  }
}

/** What `what` answered, checked against its schema; a mismatch says which fields are wrong. */
function parsed<T>(schema: ZodMiniType<T>, value: unknown, what: string, status: number): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 3).map(describeIssue).join('; ');
  throw new LocalApiError(status, `The local runtime's ${what} is not what this app understands (${issues}). Reload the page: the app and the runtime may be from different versions.`);
}

/** An error answer as a LocalApiError; one without OpenAI's error body still says its status. */
async function errorFrom(response: Response): Promise<LocalApiError> {
  const body = ErrorBody.safeParse(await response.json().catch(() => null));
  if (body.success) return new LocalApiError(response.status, body.data.error.message, body.data.error.code);
  return new LocalApiError(response.status, `${response.status} ${response.statusText}`);
}

/** Every entry of a `/v1/local/*` list, page after page (OpenAI's cursor pagination). */
async function allPages<T>(fetchFn: typeof fetch, url: string, order: 'asc' | 'desc', schema: ZodMiniType<{ data: T[]; has_more: boolean; last_id: string | null }>): Promise<T[]> {
  const all: T[] = [];
  let after: string | null = null;
  const what = `answer to ${new URL(url).pathname}`;
  for (;;) {
    const query: string = `order=${order}&limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`;
    const response = await fetchFn(`${url}?${query}`);
    if (!response.ok) throw await errorFrom(response);
    const page = parsed(schema, await response.json().catch(() => undefined), what, response.status);
    all.push(...page.data);
    if (!page.has_more || !page.last_id) return all;
    after = page.last_id;
  }
}

/**
 * @param fetchFn the runtime's fetch (direct to the runtime in the leader tab, through the
 *   service worker in the others).
 */
export function createApi(fetchFn: typeof fetch, origin = location.origin): Api {
  const base = `${origin}/v1`;
  // maxRetries 0: a retried create would start a second answer.
  const client = new OpenAI({ baseURL: base, apiKey: 'local', dangerouslyAllowBrowser: true, maxRetries: 0, fetch: fetchFn });
  return {
    client,
    providers: createProvidersApi(fetchFn, base),
    routes: createRoutesApi(fetchFn, base),
    async listModels() {
      const page = await client.models.list();
      return (page.data as unknown as ModelEntry[]).filter((m) => m.type !== 'embedding');
    },
    async localStatus() {
      const response = await fetchFn(`${base}/local/status`);
      if (response.status === 404) return null;
      if (!response.ok) throw await errorFrom(response);
      const body: unknown = await response.json().catch(() => undefined);
      return parsed(LocalStatus, body, 'answer to /v1/local/status', response.status);
    },
    async loadModel(id, onProgress, signal) {
      const response = await fetchFn(`${base}/local/models/${encodeURIComponent(id)}/load`, { method: 'POST', signal });
      if (!response.ok || !response.body) throw await errorFrom(response);
      for await (const message of readSse(response.body, signal)) {
        if (message.data === '[DONE]') break;
        const event = parsed(LoadEvent, JSON.parse(message.data) as unknown, 'download progress event', response.status);
        if (event.type === 'progress') {
          const { type: _type, ...progress } = event;
          onProgress(progress);
        } else if (event.type === 'ready') return;
        else throw new LocalApiError(500, event.error.message, event.error.code);
      }
      if (signal.aborted) throw signal.reason;
      throw new LocalApiError(500, 'The download stream ended before the model was ready.');
    },
    async deleteCachedModel(id) {
      const response = await fetchFn(`${base}/local/models/${encodeURIComponent(id)}`, { method: 'DELETE' });
      if (!response.ok) throw await errorFrom(response);
    },
    async storageSummary() {
      const response = await fetchFn(`${base}/local/storage`);
      if (!response.ok) throw await errorFrom(response);
      return parsed(StorageSummary, await response.json().catch(() => undefined), 'answer to /v1/local/storage', response.status);
    },
    storedResponses() {
      return allPages(fetchFn, `${base}/local/responses`, 'asc', StoredResponseList);
    },
    conversations() {
      return allPages(fetchFn, `${base}/local/conversations`, 'desc', LocalConversationList);
    },
    async pruneStorage(retention) {
      const response = await fetchFn(`${base}/local/storage/prune`, {
        method: 'POST',
        ...(retention ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ retention }) } : {}),
      });
      if (!response.ok) throw await errorFrom(response);
      return parsed(PruneResult, await response.json().catch(() => undefined), 'answer to /v1/local/storage/prune', response.status);
    },
  };
}
