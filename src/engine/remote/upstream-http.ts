/**
 * Requests to a provider, straight from the runtime worker: only to the provider's own
 * origin (redirects are refused, so neither the key nor the conversation follows one), the
 * key as `Authorization: Bearer …` and no other custom header (a strict server's CORS
 * preflight passes), bodies read with a byte limit, and a watchdog that fails a request that
 * sends nothing for too long — from the request until its headers, and between chunks.
 */
import { readCapped } from '../../shared/read-capped';
import { privateHost } from '../../shared/private-host';
import { httpError, parseUpstreamError, streamFailure, unreachable, type ProviderFacts, type Reachability } from './upstream-errors';

export interface UpstreamOptions {
  /** `fetch` (tests hand in their own). */
  fetch?: typeof fetch;
  /** Nothing at all from the upstream for this long fails the request. Default 120 s. */
  idleTimeoutMs?: number;
  /** A streamed answer may be at most this many bytes. Default 32 MiB. */
  maxStreamBytes?: number;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_STREAM_BYTES = 32 * 1024 * 1024;
/** JSON answers (model lists, errors) are read up to this many bytes. */
const MAX_JSON_BYTES = 4 * 1024 * 1024;
const MAX_ERROR_BYTES = 64 * 1024;

/** `${baseUrl}${path}`, checked to stay on the provider's origin. */
export function upstreamUrl(baseUrl: string, path: string): string {
  const url = `${baseUrl}${path}`;
  if (new URL(url).origin !== new URL(baseUrl).origin) throw new Error(`${path} leaves the provider's origin`);
  return url;
}

/**
 * Chrome's Local Network Access: an `http:` name that resolves locally (`gpu-box`, `*.lan`) is
 * mixed content from an https page unless the request says it targets the local network. IP
 * literals and `localhost` need no hint; elsewhere the field is ignored.
 */
function addressSpace(url: string): Record<string, string> {
  const { protocol, hostname } = new URL(url);
  if (protocol !== 'http:' || hostname === 'localhost' || /^[\d.]+$|^\[/.test(hostname)) return {};
  return privateHost(hostname) ? { targetAddressSpace: 'local' } : {};
}

/** A watchdog over one request: `kick()` on every sign of life; past `ms` of silence it aborts with `onSilence()`. */
export class Silence {
  private timer: ReturnType<typeof setTimeout> | null = null;
  readonly controller = new AbortController();
  constructor(
    private readonly ms: number,
    private readonly onSilence: () => Error,
  ) {
    this.kick();
  }
  kick(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.controller.abort(this.onSilence()), this.ms);
  }
  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  signal: AbortSignal;
  /** The upstream model asked for (a 404 then names it). */
  model?: string;
  /** A JSON answer is read up to this many bytes (default 4 MiB). */
  maxBytes?: number;
}

/**
 * Sends one request and resolves with the response once its headers came and it is a 2xx;
 * any other answer, or none, rejects with an ApiError naming the provider. The returned
 * watchdog keeps running: the caller kicks it while reading the body and stops it at the end.
 */
export async function upstreamRequest(provider: ProviderFacts, request: UpstreamRequest, options: UpstreamOptions = {}): Promise<{ response: Response; silence: Silence }> {
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const ms = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const silence = new Silence(ms, () => streamFailure(provider, `its server sent nothing for ${Math.round(ms / 1000)} s; the request was given up. Try again, or check the server.`));
  const signal = AbortSignal.any([request.signal, silence.controller.signal]);
  const url = upstreamUrl(provider.baseUrl, request.path);
  const headers: Record<string, string> = {};
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (provider.apiKey) headers.authorization = `Bearer ${provider.apiKey}`;
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: request.method,
      headers,
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      signal,
      // Never follow: the key and the conversation go to this origin only.
      redirect: 'error',
      credentials: 'omit',
      cache: 'no-store',
      ...addressSpace(url),
    } as RequestInit);
  } catch (err) {
    silence.stop();
    if (signal.aborted) throw request.signal.aborted ? request.signal.reason : silence.controller.signal.reason;
    throw unreachable(provider, await probe(fetchFn, url), err);
  }
  if (!response.ok) {
    silence.stop();
    const bytes = await readCapped(response.body, MAX_ERROR_BYTES).catch(() => null);
    const text = bytes ? new TextDecoder().decode(bytes) : '';
    // A redirect refused by `redirect: 'error'` rejects above; a 3xx seen here (opaque) is not followed either.
    throw httpError(provider, response.status, parseUpstreamError(text, response.statusText), response.headers, request.model);
  }
  return { response, silence };
}

/** A JSON answer (a model list), read whole up to a limit. */
export async function upstreamJson(provider: ProviderFacts, request: UpstreamRequest, options: UpstreamOptions = {}): Promise<unknown> {
  const { response, silence } = await upstreamRequest(provider, request, options);
  const max = request.maxBytes ?? MAX_JSON_BYTES;
  try {
    const bytes = await readCapped(response.body, max);
    if (bytes === null) throw streamFailure(provider, `its answer to ${request.path} is larger than ${Math.round(max / 1024 / 1024)} MiB.`);
    try {
      return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    } catch {
      throw streamFailure(provider, `its answer to ${request.path} is not JSON. Check its address (it usually ends in /v1).`);
    }
  } finally {
    silence.stop();
  }
}

/**
 * How the server answers when asked without CORS (an opaque answer): not at all, with a
 * redirect, or with anything else. A fetch that failed with CORS or a refused redirect then
 * tells "refused this origin" and "redirects elsewhere" from "down or unreachable"; nothing
 * of the probe's answer can be read but its kind.
 */
async function probe(fetchFn: typeof fetch, url: string): Promise<Reachability> {
  try {
    const answer = await fetchFn(url, { mode: 'no-cors', credentials: 'omit', redirect: 'manual', signal: AbortSignal.timeout(3000) });
    // A browser gives an `opaqueredirect`; a fetch outside one, the 3xx itself.
    return answer.type === 'opaqueredirect' || (answer.status >= 300 && answer.status < 400) ? 'redirects' : 'answers';
  } catch {
    return 'silent';
  }
}
