/**
 * Wikipedia article pages (`https://{lang}.wikipedia.org/wiki/{Title}`) send no CORS
 * headers, so a browser cannot read them; the MediaWiki action API can be read from any
 * origin (`origin=*`) and gives the same article as HTML. `open_page` on an article URL
 * reads it through the API; the page keeps its article URL (for citations).
 */

export interface WikipediaArticle {
  /** The API request that returns the article's HTML. */
  apiUrl: string;
}

const ARTICLE = /^([a-z][a-z-]{1,15})(?:\.m)?\.wikipedia\.org$/;

/** The API request for an article URL, or null when `url` is not a Wikipedia article. */
export function wikipediaArticle(url: string): WikipediaArticle | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const lang = ARTICLE.exec(parsed.hostname)?.[1];
  if (parsed.protocol !== 'https:' || !lang || !parsed.pathname.startsWith('/wiki/')) return null;
  const title = decodeURIComponent(parsed.pathname.slice('/wiki/'.length));
  if (!title) return null;
  const params = new URLSearchParams({
    action: 'parse',
    page: title,
    prop: 'text',
    format: 'json',
    formatversion: '2',
    redirects: '1',
    disableeditsection: '1',
    disabletoc: '1',
    origin: '*',
  });
  return { apiUrl: `https://${lang}.wikipedia.org/w/api.php?${params}` };
}

/** `action=parse` JSON → an HTML document for the readable-text extraction. */
export function wikipediaArticleHtml(json: unknown): string {
  const body = json as { parse?: { title?: unknown; text?: unknown }; error?: { info?: unknown } };
  if (body?.error) throw new Error(`Wikipedia answered with an error: ${String(body.error.info ?? 'unknown')}`);
  const { title, text } = body?.parse ?? {};
  if (typeof text !== 'string') throw new Error('Wikipedia answered with JSON that is not an article');
  const name = typeof title === 'string' ? title.replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;')) : '';
  return `<!doctype html><html><head><title>${name}</title></head><body><article><h1>${name}</h1>${text}</article></body></html>`;
}
