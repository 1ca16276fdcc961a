/**
 * Search providers the `search` tool can use from a browser without keys. Each turns a
 * query into one request URL and parses that provider's JSON into sources.
 *
 * - Wikipedia (default): the MediaWiki search API, which allows any origin with `origin=*`.
 * - SearXNG: `{base}/search?q=…&format=json`; the instance must enable the JSON format and
 *   send `Access-Control-Allow-Origin` (a self-hosted one usually is configured to).
 */
import type { SearchSource } from '../../ports/tool-ports';
import type { SearchProviderConfig } from '../../protocol/runtime-options';


export interface SearchProvider {
  /** Shown in errors ("the search provider Wikipedia (en) …"). */
  name: string;
  url(query: string, limit: number): string;
  parse(json: unknown, limit: number): SearchSource[];
}

export function searchProvider(config: SearchProviderConfig = { type: 'wikipedia' }): SearchProvider {
  if (config.type === 'searxng') return searxng(config.baseUrl);
  return wikipedia(config.lang ?? 'en');
}

function wikipedia(lang: string): SearchProvider {
  if (!/^[a-z][a-z-]{1,15}$/.test(lang)) throw new Error(`"${lang}" is not a Wikipedia language code (like "en" or "de")`);
  const host = `https://${lang}.wikipedia.org`;
  return {
    name: `Wikipedia (${lang})`,
    url(query, limit) {
      const params = new URLSearchParams({ action: 'query', list: 'search', format: 'json', origin: '*', srlimit: String(limit), srsearch: query });
      return `${host}/w/api.php?${params}`;
    },
    parse: (json, limit) => parseWikipediaSearch(json, lang).slice(0, limit),
  };
}

function searxng(baseUrl: string): SearchProvider {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    name: `SearXNG at ${base}`,
    url: (query) => `${base}/search?${new URLSearchParams({ q: query, format: 'json' })}`,
    parse: (json, limit) => parseSearxng(json).slice(0, limit),
  };
}

interface WikipediaSearchJson {
  query?: { search?: Array<{ title?: unknown; snippet?: unknown }> };
  error?: { info?: unknown };
}

/** `action=query&list=search` → sources with `https://{lang}.wikipedia.org/wiki/{Title}` URLs. */
export function parseWikipediaSearch(json: unknown, lang: string): SearchSource[] {
  const body = json as WikipediaSearchJson;
  if (body?.error) throw new Error(`Wikipedia answered with an error: ${String(body.error.info ?? 'unknown')}`);
  const hits = body?.query?.search;
  if (!Array.isArray(hits)) throw new Error('Wikipedia answered with JSON that is not a search result');
  return hits.flatMap((hit) => {
    if (typeof hit.title !== 'string' || !hit.title) return [];
    const path = encodeURIComponent(hit.title.replace(/ /g, '_')).replace(/%2F/g, '/').replace(/%3A/g, ':');
    return [{ url: `https://${lang}.wikipedia.org/wiki/${path}`, title: hit.title, snippet: snippetText(hit.snippet) }];
  });
}

interface SearxngJson {
  results?: Array<{ url?: unknown; title?: unknown; content?: unknown }>;
}

/** SearXNG `format=json` → sources (results without an http(s) URL are skipped). */
export function parseSearxng(json: unknown): SearchSource[] {
  const results = (json as SearxngJson)?.results;
  if (!Array.isArray(results)) throw new Error('the SearXNG instance answered with JSON that has no "results" list');
  return results.flatMap((r) => {
    if (typeof r.url !== 'string' || !/^https?:\/\//i.test(r.url)) return [];
    return [{ url: r.url, title: typeof r.title === 'string' && r.title ? r.title : r.url, snippet: snippetText(r.content) }];
  });
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * Snippets come as small HTML fragments (Wikipedia marks hits with
 * `<span class="searchmatch">`): drop the tags, decode the entities, collapse whitespace.
 */
function snippetText(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+\d*);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}
