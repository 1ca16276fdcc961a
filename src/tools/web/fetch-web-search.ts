/**
 * `WebSearchPort` over `fetch`: search through a provider's JSON API, open pages and read
 * them as text. Every URL passes the URL policy before it is requested, redirect targets
 * included (redirects are followed by hand); requests carry no credentials and no referrer. Failures throw errors whose message says what went
 * wrong in words the model can repeat to the user (offline, CORS, HTTP status, policy).
 */
import type { SearchSource, WebPage, WebSearchPort } from '../../ports/tool-ports';
import { searchProvider } from './search-providers';
import type { SearchProviderConfig } from '../../protocol/runtime-options';
import { checkUrl, type UrlPolicy } from './url-policy';
import { wikipediaArticle, wikipediaArticleHtml } from './wikipedia-pages';

export interface FetchWebSearchOptions {
  policy: UrlPolicy;
  /** Default: Wikipedia in English. */
  provider?: SearchProviderConfig;
  /** Results per search. Default 5. */
  maxResults?: number;
  /** Budget of an opened page's text, in tokens (about 4 characters each). Default 3000. */
  pageTokens?: number;
  /** Time limit per request, ms. Default 20 000. */
  timeoutMs?: number;
  /** Bodies are read up to this many bytes. Default 5 MB. */
  maxBytes?: number;
  fetch?: typeof fetch;
  /** Whether the browser believes it is online (`navigator.onLine`). */
  online?: () => boolean;
}

const CHARS_PER_TOKEN = 4;
/** Redirects followed per fetch (browsers follow 20; a page needing more is broken). */
const MAX_REDIRECTS = 5;
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
const CACHED_PAGES = 16;
const READABLE_TYPES = /^(text\/html|application\/xhtml\+xml|text\/plain|text\/markdown|application\/xml|text\/xml)\b/i;

export function createFetchWebSearch(options: FetchWebSearchOptions): WebSearchPort {
  const provider = searchProvider(options.provider);
  const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const online = options.online ?? (() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  const maxResults = options.maxResults ?? 5;
  const pageChars = (options.pageTokens ?? 3000) * CHARS_PER_TOKEN;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const maxBytes = options.maxBytes ?? 5_000_000;
  // Pages already read, so `find_in_page` after `open_page` does not fetch again.
  const pages = new Map<string, { url: string; title: string; text: string }>();

  /**
   * GET `raw`, following redirects by hand: every hop's URL passes the policy before it
   * is requested, so a redirect can never deliver a request to a host the policy refuses.
   */
  async function get(raw: string, accept: string, signal: AbortSignal): Promise<{ url: string; type: string; body: string }> {
    const timeout = AbortSignal.timeout(timeoutMs);
    let url = raw;
    for (let hops = 0; ; hops++) {
      const verdict = checkUrl(url, options.policy);
      if (!verdict.ok) throw new Error(hops === 0 ? `${raw} was not fetched: ${verdict.reason}` : `${raw} redirected to ${url}, which is not fetched: ${verdict.reason}`);
      url = verdict.url.href;
      const response = await request(url, accept, signal, timeout);
      if (response.type === 'opaqueredirect') {
        // A browser hides a redirect's target from `redirect: 'manual'` (status 0, no
        // Location), so the policy cannot look at it: not followed rather than unchecked.
        throw new Error(
          `${url} redirected to an address the browser does not show to the runtime, so the redirect was not followed (each address must be checked before it is fetched). Open the page's final address directly, e.g. with https:// or a trailing slash.`,
        );
      }
      if (REDIRECT_STATUS.has(response.status)) {
        await response.body?.cancel();
        const location = response.headers.get('location');
        if (!location) throw new Error(`${url} answered HTTP ${response.status} without a Location to go to`);
        if (hops >= MAX_REDIRECTS) throw new Error(`${raw} redirected more than ${MAX_REDIRECTS} times; not followed further`);
        url = new URL(location, url).href;
        continue;
      }
      // A fetch that followed a redirect itself (an injected one may): checked after the fact.
      const final = response.url || url;
      if (final !== url) {
        const after = checkUrl(final, options.policy);
        if (!after.ok) {
          await response.body?.cancel();
          throw new Error(`${url} redirected to ${final}, which is not fetched: ${after.reason}`);
        }
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`${final} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
      }
      const type = response.headers.get('content-type') ?? '';
      return { url: final, type, body: await readText(response, maxBytes) };
    }
  }

  /** One request, no redirect followed; failures in words the model can repeat. */
  async function request(url: string, accept: string, signal: AbortSignal, timeout: AbortSignal): Promise<Response> {
    signal.throwIfAborted();
    try {
      return await fetchFn(url, {
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        redirect: 'manual',
        headers: { accept }, // a CORS-safelisted header: no preflight
        signal: AbortSignal.any([signal, timeout]),
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (timeout.aborted) throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
      if (!online()) throw new Error(`${url} could not be fetched: the browser is offline`);
      throw new Error(`${url} could not be fetched: offline, or the site does not allow cross-origin requests (CORS)${detail(error)}`);
    }
  }

  async function read(raw: string, signal: AbortSignal) {
    const cached = pages.get(raw);
    if (cached) return cached;
    const target = withScheme(raw);
    // Loaded on first use: the runtime starts without the HTML parser.
    const { readableText } = await import('./readable-text');
    let entry: { url: string; title: string; text: string };
    const article = wikipediaArticle(target);
    if (article && checkUrl(target, options.policy).ok) {
      const { body } = await get(article.apiUrl, 'application/json', signal);
      entry = { url: target, ...readableText(wikipediaArticleHtml(parseJson(body, 'Wikipedia')), target) };
    } else {
      const { url, type, body } = await get(target, 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5', signal);
      if (type && !READABLE_TYPES.test(type)) throw new Error(`${url} is not a readable page (it is ${type.split(';')[0]})`);
      const page = /^text\/(plain|markdown)/i.test(type) ? { title: url, text: body.trim() } : readableText(body, url);
      entry = { url, ...page };
    }
    remember(pages, raw, entry);
    remember(pages, entry.url, entry);
    return entry;
  }

  return {
    async search(query: string, signal: AbortSignal): Promise<SearchSource[]> {
      if (!query.trim()) throw new Error('the search query is empty');
      const { body } = await get(provider.url(query, maxResults), 'application/json', signal);
      return provider.parse(parseJson(body, `the search provider ${provider.name}`), maxResults);
    },
    async openPage(url: string, signal: AbortSignal): Promise<WebPage> {
      const page = await read(url, signal);
      const { cutToBudget } = await import('./readable-text');
      return { url: page.url, title: page.title, text: cutToBudget(page.text, pageChars) || '(the page has no readable text)' };
    },
    async findInPage(url: string, pattern: string, signal: AbortSignal) {
      const page = await read(url, signal);
      const { findLines } = await import('./readable-text');
      return { url: page.url, matches: findLines(page.text, pattern) };
    },
  };
}

/** `example.com/page` → `https://example.com/page`; anything with a scheme is left as is. */
function withScheme(raw: string): string {
  const trimmed = raw.trim();
  return /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed.replace(/^\/\//, '')}`;
}

function parseJson(body: string, who: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new Error(`${who} answered with something that is not JSON`);
  }
}

function remember<T>(cache: Map<string, T>, key: string, value: T): void {
  cache.delete(key);
  cache.set(key, value);
  while (cache.size > CACHED_PAGES) cache.delete(cache.keys().next().value!);
}

function detail(error: unknown): string {
  return error instanceof Error && error.message ? ` (${error.name}: ${error.message})` : '';
}

/** The body as text, decoded with the charset the server named, read up to `maxBytes`. */
async function readText(response: Response, maxBytes: number): Promise<string> {
  const charset = /charset="?([\w-]+)/i.exec(response.headers.get('content-type') ?? '')?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      text += decoder.decode(value, { stream: true });
      if (bytes >= maxBytes) break; // the rest of a huge page is not worth the memory
    }
  } finally {
    await reader.cancel().catch(() => {}); // already finished or errored: nothing left to stop
  }
  return text + decoder.decode();
}
