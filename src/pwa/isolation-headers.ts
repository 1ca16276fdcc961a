/**
 * Cross-origin isolation: the two headers that give the app `SharedArrayBuffer`, which the
 * CPU engine needs for its threads (wllama's pthread pool) and the Python sandbox for its
 * interrupt buffer (a runaway call stops with `KeyboardInterrupt` and keeps its state).
 *
 * - `Cross-Origin-Opener-Policy: same-origin`: no window of another origin shares our
 *   browsing context group (links in answers open with no opener anyway).
 * - `Cross-Origin-Embedder-Policy`: `credentialless` where the browser implements it
 *   (Chromium 96+, Firefox 119+), `require-corp` otherwise (Safari). Both isolate; they
 *   differ only for cross-origin `no-cors` loads (an `<img>` of another site), which the
 *   app's CSP already refuses: `credentialless` lets them load without cookies,
 *   `require-corp` wants a `Cross-Origin-Resource-Policy` from their server. Model
 *   downloads, web search and MCP are CORS fetches, which both allow. A browser that does
 *   not know `credentialless` treats it as no policy at all (not isolated), hence the
 *   choice per browser rather than one value for all.
 *
 * Who decides: the service worker for what it serves from the precache (it asks its own
 * `navigator`), and the dev/preview server for the first visit (it reads the request's
 * `User-Agent` and `Sec-CH-UA`). Both go through {@link embedderPolicyFor}.
 *
 * They are sent on every file, not only documents: a dedicated worker's script must carry
 * a compatible COEP itself, or an isolated page cannot start it.
 */

export type EmbedderPolicy = 'credentialless' | 'require-corp';

/** What is known of the browser: its `User-Agent`, and its client-hint brands when sent. */
export interface BrowserIdentity {
  userAgent?: string | null;
  /** `Sec-CH-UA` as sent (`"Chromium";v="156", …`), or `navigator.userAgentData.brands`. */
  brands?: string | ReadonlyArray<{ brand: string; version: string }> | null;
}

/** The first major version that implements `Cross-Origin-Embedder-Policy: credentialless`. */
const CREDENTIALLESS_SINCE = { chromium: 96, firefox: 119 } as const;

function chromiumMajor(brands: BrowserIdentity['brands']): number | null {
  if (!brands) return null;
  const list = typeof brands === 'string' ? [...brands.matchAll(/"([^"]*)"\s*;\s*v\s*=\s*"(\d+)/g)].map((m) => ({ brand: m[1]!, version: m[2]! })) : brands;
  const chromium = list.find((b) => b.brand === 'Chromium');
  return chromium ? Number.parseInt(chromium.version, 10) : null;
}

function userAgentMajor(userAgent: string | null | undefined, product: RegExp): number | null {
  const match = userAgent ? product.exec(userAgent) : null;
  return match ? Number.parseInt(match[1]!, 10) : null;
}

/**
 * The COEP value for this browser: `credentialless` when it is known to implement it,
 * `require-corp` otherwise (including when nothing is known).
 *
 * @example
 * embedderPolicyFor({ brands: '"Chromium";v="156", "Not-A.Brand";v="24"' }) // 'credentialless'
 * embedderPolicyFor({ userAgent: 'Mozilla/5.0 (Macintosh; …) Version/18.2 Safari/605.1.15' }) // 'require-corp'
 */
export function embedderPolicyFor(browser: BrowserIdentity): EmbedderPolicy {
  // Edge, Opera, Brave…: every Chromium-based browser names its engine in the brands.
  const chromium = chromiumMajor(browser.brands) ?? userAgentMajor(browser.userAgent, /\b(?:Chrome|Chromium)\/(\d+)/);
  // Chrome on iOS is WebKit ("CriOS"), never "Chrome/"; Firefox's UA has no "Chrome/".
  if (chromium !== null) return chromium >= CREDENTIALLESS_SINCE.chromium ? 'credentialless' : 'require-corp';
  const firefox = userAgentMajor(browser.userAgent, /\bFirefox\/(\d+)/);
  if (firefox !== null && firefox >= CREDENTIALLESS_SINCE.firefox) return 'credentialless';
  return 'require-corp';
}

/** COOP and COEP for a response to this browser. */
export function isolationHeaders(browser: BrowserIdentity): Record<string, string> {
  return {
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': embedderPolicyFor(browser),
  };
}

/** The browser this code runs in (the service worker asks for its own headers). */
export function thisBrowser(): BrowserIdentity {
  const nav = (globalThis as { navigator?: { userAgent?: string; userAgentData?: { brands?: Array<{ brand: string; version: string }> } } }).navigator;
  return { userAgent: nav?.userAgent ?? null, brands: nav?.userAgentData?.brands ?? null };
}
