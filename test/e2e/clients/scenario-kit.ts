/**
 * What every client scenario bundled into the page shares: where `/v1` is (through the
 * service worker, as a user's code would call it), how a `test-scripted` input is written,
 * and how an error a client throws is reduced to data a test can assert on.
 */

/** The Responses API of this origin. */
export function baseURL(): string {
  return `${location.origin}/v1`;
}

export const MODEL = 'test-scripted';

/** Optional knobs of the scripted model (see TESTING.md "The scripted test model"). */
export interface ScriptOptions {
  fail_after?: number;
  delay_ms?: number;
  chunk?: number;
}

/** The user message that makes `test-scripted` play `script` (entry i after i tool results). */
export function script(entries: string | string[], options: ScriptOptions = {}): string {
  return JSON.stringify({ script: entries, ...options });
}

/** A `<tool_call>` as the Qwen-family parser reads it. */
export function toolCall(name: string, args: Record<string, unknown>): string {
  return `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
}

export interface CaughtError {
  name: string;
  message: string;
  status?: number;
  code?: string;
}

/** Runs `fn` and returns what it threw (or `null`), as plain data. */
export async function caught(fn: () => Promise<unknown>): Promise<CaughtError | null> {
  try {
    await fn();
    return null;
  } catch (error) {
    const e = error as { name?: string; message?: string; status?: number; statusCode?: number; code?: string };
    return { name: e.name ?? typeof error, message: String(e.message ?? error), status: e.status ?? e.statusCode, code: e.code };
  }
}

/** Tools the scenarios give the model; each records its calls so a test sees they ran. */
export function weatherLookup(calls: unknown[]) {
  return ({ city }: { city: string }) => {
    calls.push({ city });
    return JSON.stringify({ city, sky: city === 'Paris' ? 'clear' : 'rain', celsius: 21 });
  };
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
}

/**
 * `fetch` that records each request's method, path and JSON body, so a test can check what
 * a client library actually sent (e.g. `store: false` and the encrypted reasoning it
 * carried back) without a proxy in between.
 */
export function recordingFetch(log: RecordedRequest[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const text = request.body ? await request.clone().text() : '';
    let body: Record<string, unknown> | null = null;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      // not JSON: recorded without a body
    }
    log.push({ method: request.method, path: new URL(request.url).pathname, body });
    return fetch(request);
  };
}
