/**
 * The HTTP headers every file of the app is served with — by the service worker for what
 * it serves from the precache (`precache.ts`), and by Vite's dev and preview servers
 * (`vite.config.ts`), so the first visit (network) and every later one (precache) run
 * under the same rules.
 *
 * The Content-Security-Policy is a second line behind the Markdown sanitizer
 * (`ui/markdown.ts`): model output — and so any page the model read — must not make the
 * app *load* a URL the person did not click (an image, a video poster or a stylesheet
 * whose URL carries the conversation in its query). So:
 *
 * - `img-src`/`media-src`/`font-src`/`style-src` allow this origin (and `data:`/`blob:`
 *   for images the code interpreter makes) only: nothing external loads without a click;
 * - `connect-src *` on purpose: the runtime downloads models from Hugging Face or any
 *   mirror the person configured, and web search calls whatever provider is set. `fetch`
 *   is not something injected HTML can trigger (scripts are what `script-src` and the
 *   sanitizer stop), so listing hosts here would break configuration without closing a
 *   leak. (Chromium governs a dedicated worker's fetches by the worker script's own
 *   headers, which are these too.)
 * - `script-src` is this origin, WebAssembly (`'wasm-unsafe-eval'`: web-llm, wllama,
 *   pyodide), `blob:` (the Python sandbox starts its worker and pyodide's modules from
 *   blob: URLs; a blob: URL can only be made by code already running here) and the hash
 *   of the sandbox frame's one inline bootstrap: a `srcdoc` frame inherits this policy.
 * - no plugins, no `<base>`, forms post to this origin only, and no other origin may frame
 *   the app (`frame-ancestors`, and `X-Frame-Options` for browsers without it).
 *
 * With them go COOP and COEP (cross-origin isolation, `isolation-headers.ts`), which
 * depend on the browser: the service worker adds its own browser's, the servers the
 * requesting one's.
 */
import { SANDBOX_BOOTSTRAP_HASH } from '../tools/python';
import { isolationHeaders, thisBrowser, type BrowserIdentity } from './isolation-headers';

export interface SecurityHeaderOptions {
  /**
   * Vite's dev server: it injects CSS as `<style>` elements and talks to the page over a
   * WebSocket (hot reload). Never for a build.
   */
  dev?: boolean;
}

export function contentSecurityPolicy({ dev = false }: SecurityHeaderOptions = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'wasm-unsafe-eval' blob: '${SANDBOX_BOOTSTRAP_HASH}'`,
    "worker-src 'self' blob:",
    `connect-src * data: blob:${dev ? ' ws: wss:' : ''}`,
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    `style-src 'self'${dev ? " 'unsafe-inline'" : ''}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

export function securityHeaders(options: SecurityHeaderOptions = {}): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(options),
    'X-Frame-Options': 'SAMEORIGIN',
    'X-Content-Type-Options': 'nosniff',
    // Links in answers lead anywhere: they learn nothing about this app or the chat.
    'Referrer-Policy': 'no-referrer',
  };
}

/**
 * `response` with the security and isolation headers added (a new Response; the body is
 * not read). `browser`: whose COEP value to send (default: the one this code runs in).
 */
export function withSecurityHeaders(response: Response, browser: BrowserIdentity = thisBrowser()): Response {
  // Opaque and redirected responses keep what they are (they cannot be rebuilt faithfully).
  if (response.type === 'opaque' || response.type === 'opaqueredirect' || response.redirected) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries({ ...securityHeaders(), ...isolationHeaders(browser) })) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
