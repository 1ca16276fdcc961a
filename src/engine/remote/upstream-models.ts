/**
 * An upstream's `GET /models` (OpenAI's list shape) read into model ids and, where the
 * server says, their context windows: llama.cpp `meta.n_ctx` (per slot: what a request gets),
 * vLLM and SGLang `max_model_len`, others `context_length` / `context_window`. Untrusted: ids
 * are bounded in length and number, anything else is ignored.
 */
import { MAX_PROVIDER_MODELS } from '../../protocol/local-providers';

export interface UpstreamModel {
  id: string;
  contextWindow?: number;
  /** Unix seconds, when the upstream says. */
  created?: number;
}

const MAX_ID = 256;

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** The models of a `/models` answer; null when it is not a model list at all. */
export function readModelList(body: unknown): UpstreamModel[] | null {
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return null;
  const seen = new Set<string>();
  const models: UpstreamModel[] = [];
  for (const entry of data) {
    if (models.length >= MAX_PROVIDER_MODELS) break;
    if (typeof entry !== 'object' || entry === null) continue;
    const o = entry as { id?: unknown; created?: unknown; meta?: { n_ctx?: unknown } | null; max_model_len?: unknown; context_length?: unknown; context_window?: unknown };
    if (typeof o.id !== 'string' || o.id === '' || o.id.length > MAX_ID || seen.has(o.id) || /[\u0000-\u001f]/.test(o.id)) continue;
    seen.add(o.id);
    const contextWindow = positiveInt(o.meta?.n_ctx) ?? positiveInt(o.max_model_len) ?? positiveInt(o.context_length) ?? positiveInt(o.context_window);
    const created = positiveInt(o.created);
    models.push({ id: o.id, ...(contextWindow !== undefined ? { contextWindow } : {}), ...(created !== undefined ? { created } : {}) });
  }
  return models;
}
