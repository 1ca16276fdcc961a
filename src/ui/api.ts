/**
 * The app's view of the local server: the `openai` SDK for `/v1/responses` and
 * `/v1/models` (the app is a client like any other), plus the `/v1/local/*` extensions for
 * model downloads, which the SDK does not know.
 */
import OpenAI from 'openai';
import { readSse } from '../protocol/sse';

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
}

export interface LoadProgress {
  model: string;
  phase: 'download' | 'compile' | 'ready';
  progress: number;
  loadedBytes?: number;
  totalBytes?: number;
  text: string;
}

export interface LocalStatus {
  gpu: { usable: boolean; reason: string | null; shaderF16: boolean };
  /** Whether CPU (WebAssembly) models can run in this browser. */
  cpu?: { usable: boolean; reason: string | null };
  storage: { usageBytes: number; quotaBytes: number; persisted: boolean } | null;
  loaded: string | null;
  loading: LoadProgress | null;
  models: Array<{ id: string; cached: boolean; loaded: boolean }>;
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
  listModels(): Promise<ModelEntry[]>;
  /** `null` when this runtime has no model management (404): the UI then hides downloads. */
  localStatus(): Promise<LocalStatus | null>;
  /** Downloads and prepares `id`; resolves when ready. Aborting `signal` cancels. */
  loadModel(id: string, onProgress: (p: LoadProgress) => void, signal: AbortSignal): Promise<void>;
  deleteCachedModel(id: string): Promise<void>;
}

async function errorFrom(response: Response): Promise<LocalApiError> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string; code?: string | null } } | null;
  return new LocalApiError(response.status, body?.error?.message ?? `${response.status} ${response.statusText}`, body?.error?.code ?? null);
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
    async listModels() {
      const page = await client.models.list();
      return page.data as unknown as ModelEntry[];
    },
    async localStatus() {
      const response = await fetchFn(`${base}/local/status`);
      if (response.status === 404) return null;
      if (!response.ok) throw await errorFrom(response);
      return (await response.json()) as LocalStatus;
    },
    async loadModel(id, onProgress, signal) {
      const response = await fetchFn(`${base}/local/models/${encodeURIComponent(id)}/load`, { method: 'POST', signal });
      if (!response.ok || !response.body) throw await errorFrom(response);
      for await (const message of readSse(response.body, signal)) {
        if (message.data === '[DONE]') break;
        const data = JSON.parse(message.data) as { type: string; error?: { message: string; code?: string | null } } & LoadProgress;
        if (data.type === 'progress') onProgress(data);
        else if (data.type === 'ready') return;
        else if (data.type === 'error') throw new LocalApiError(500, data.error?.message ?? 'The model could not be loaded.', data.error?.code ?? null);
      }
      if (signal.aborted) throw signal.reason;
      throw new LocalApiError(500, 'The download stream ended before the model was ready.');
    },
    async deleteCachedModel(id) {
      const response = await fetchFn(`${base}/local/models/${encodeURIComponent(id)}`, { method: 'DELETE' });
      if (!response.ok) throw await errorFrom(response);
    },
  };
}
