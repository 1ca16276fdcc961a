/**
 * An upstream's failures as errors a person can act on, each naming the provider: an HTTP
 * error answer (its own message passed on), a network failure (unreachable or refused by
 * CORS: a browser cannot tell them apart, so both are named, with how to allow this origin
 * on each server), a stream that breaks or goes silent. The key never appears in a message:
 * an upstream that echoes it gets it replaced (`redact`).
 */
import { ApiError } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';

/** What a message about a provider needs to know of it. */
export interface ProviderFacts {
  id: string;
  baseUrl: string;
  apiKey?: string;
  keyStorage: 'persistent' | 'session' | null;
  /** This app's origin, for the CORS advice. */
  appOrigin: string;
}

/** An upstream message is quoted at most this long. */
const MAX_QUOTED = 1000;

/** `text` with the key (and anything after `Bearer `) blanked, cut to a quotable length. */
export function redact(text: string, key: string | undefined): string {
  let out = key ? text.split(key).join('[redacted]') : text;
  out = out.replace(/Bearer\s+\S+/gi, 'Bearer [redacted]');
  return out.length > MAX_QUOTED ? `${out.slice(0, MAX_QUOTED)}…` : out;
}

/** How to let this origin in, server by server (docs/providers.md says the same). */
export function corsAdvice(origin: string): string {
  return (
    `To allow ${origin}: llama.cpp allows every origin by default (\`llama-server --cors-origins ${origin}\` to name it; with --api-key also \`--cors-headers "Authorization, Content-Type"\`); ` +
    `vLLM \`--allowed-origins '["${origin}"]'\`; SGLang allows every origin; Ollama \`OLLAMA_ORIGINS=${origin}\`; ` +
    `LM Studio: Developer → Server Settings → Enable CORS.`
  );
}

/**
 * `fetch` rejected: nothing came back that the page may read. `reachable`: a no-CORS probe of
 * the same server got an (opaque) answer, so the server is up and CORS is the likely cause.
 */
/** How a server answered a request sent without CORS: not at all, with a redirect, or otherwise. */
export type Reachability = 'silent' | 'redirects' | 'answers';

export function unreachable(provider: ProviderFacts, reachable: Reachability, cause: unknown): ApiError {
  const where = `provider '${provider.id}' at ${provider.baseUrl}`;
  if (reachable === 'redirects') {
    return new ApiError(
      {
        status: 502,
        type: 'server_error',
        code: Codes.providerUnreachable,
        param: null,
        message: `Provider '${provider.id}' answered with a redirect to another address, which this runtime does not follow: the key and the conversation go to ${provider.baseUrl} only. Set the provider's address to the one it redirects to (often http → https, or a missing or extra /v1) in Settings → Providers.`,
      },
      { cause },
    );
  }
  const why =
    reachable === 'answers'
      ? `The server answers, but not to requests from ${provider.appOrigin}: it does not allow this origin (CORS).`
      : `Either its server is not running or cannot be reached from this browser, or it does not allow requests from ${provider.appOrigin} (CORS) — the browser does not say which.`;
  const lna = provider.baseUrl.startsWith('http:') ? ' From a page on https, Chrome also asks before it lets the page reach a local-network address: use Test connection in Settings → Providers once.' : '';
  return new ApiError(
    { status: 502, type: 'server_error', code: Codes.providerUnreachable, param: null, message: `Could not reach ${where}. ${why} ${corsAdvice(provider.appOrigin)}${lna}` },
    { cause },
  );
}

/** The error object an upstream sent (OpenAI's `{error: {…}}`, SGLang/old vLLM's top-level form, or text). */
export interface UpstreamError {
  message: string;
  type?: string;
  code?: string | number | null;
  param?: string | null;
}

/** Reads an error body (already bounded text) into its parts; a body that is not JSON is the message. */
export function parseUpstreamError(text: string, statusText = ''): UpstreamError {
  try {
    const body = JSON.parse(text) as unknown;
    const e = typeof body === 'object' && body !== null ? ((body as { error?: unknown }).error ?? body) : body;
    if (typeof e === 'string') return { message: e };
    if (typeof e === 'object' && e !== null) {
      const o = e as Record<string, unknown>;
      const message = typeof o.message === 'string' ? o.message : typeof o.detail === 'string' ? o.detail : JSON.stringify(e);
      return {
        message,
        ...(typeof o.type === 'string' ? { type: o.type } : {}),
        ...(typeof o.code === 'string' || typeof o.code === 'number' ? { code: o.code } : {}),
        ...(typeof o.param === 'string' ? { param: o.param } : {}),
      };
    }
  } catch {
    // not JSON: the text is the message
  }
  return { message: text.trim() || statusText || 'no message' };
}

const CONTEXT_MESSAGE = /context (length|size|window)|maximum context|longer than the model|exceeds the available context/i;

/** Whether an upstream error says the input did not fit (OpenAI, llama.cpp, vLLM, SGLang wordings). */
export function isContextOverflow(error: UpstreamError, status: number): boolean {
  return error.code === 'context_length_exceeded' || error.type === 'exceed_context_size_error' || (status === 400 && CONTEXT_MESSAGE.test(error.message));
}

/** Seconds to wait before trying again, from `retry-after-ms` / `retry-after` (seconds or an HTTP date). */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | null {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return Math.ceil(ms / 1000);
  const value = headers.get('retry-after');
  if (value === null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

/** An HTTP error answer of the upstream as our error; `model`: the upstream model asked for, if any. */
export function httpError(provider: ProviderFacts, status: number, error: UpstreamError, headers: Headers, model?: string): ApiError {
  // Quoted inside our sentence: its own closing period would double ours.
  const said = redact(error.message, provider.apiKey).replace(/[.\s]+$/, '');
  const name = `Provider '${provider.id}'`;
  if (status === 401 || status === 403) {
    const key = !provider.apiKey
      ? provider.keyStorage === 'session'
        ? 'Its key was kept for the session only and the runtime has restarted since: enter it again in Settings → Providers.'
        : 'No API key is set for it: add one in Settings → Providers.'
      : 'Check its API key in Settings → Providers.';
    return new ApiError({ status, type: 'invalid_request_error', code: Codes.providerAuthFailed, param: null, message: `${name} refused the request (${status}): ${said}. ${key}` });
  }
  if (status === 429) {
    const wait = retryAfterSeconds(headers);
    const when = wait !== null ? ` Try again in ${wait} s.` : ' Try again later.';
    return new ApiError({ status: 429, type: 'rate_limit_error', code: Codes.rateLimitExceeded, param: null, message: `${name} is limiting requests (429): ${said}.${when}` });
  }
  if (isContextOverflow(error, status))
    return new ApiError({
      status: 400,
      type: 'invalid_request_error',
      code: Codes.contextLengthExceeded,
      param: 'input',
      // `code` is lost once a response has started (a failed response carries only the SDK's
      // codes), so the message names it too, for clients that match on it.
      message: `${name}: the input does not fit the model's context window (context_length_exceeded): ${said}. Shorten the input, or use truncation: "auto" or compaction (give the provider its context_window so they can tell).`,
    });
  if (status === 404)
    return new ApiError({
      status: 404,
      type: 'invalid_request_error',
      code: model !== undefined ? Codes.modelNotFound : Codes.providerError,
      param: model !== undefined ? 'model' : null,
      message: model !== undefined ? `${name} does not serve the model '${model}' (404): ${said}` : `${name} answered 404 at ${provider.baseUrl}: ${said}. Check its address (it usually ends in /v1).`,
    });
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  return new ApiError({ status: status >= 500 ? 502 : status, type, code: Codes.providerError, param: null, message: `${name} answered ${status}: ${said}` });
}

/** The stream broke off, went silent, sent something unreadable, or an error of its own. */
export function streamFailure(provider: ProviderFacts, what: string): ApiError {
  return new ApiError({ status: 502, type: 'server_error', code: Codes.providerStreamFailed, param: null, message: `Provider '${provider.id}': ${redact(what, provider.apiKey)}` });
}
