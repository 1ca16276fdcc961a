import { describe, expect, test } from 'vitest';
import { parseSearxng, parseWikipediaSearch, searchProvider } from './search-providers';

/** Trimmed from a real `action=query&list=search` answer. */
const wikipediaAnswer = {
  batchcomplete: '',
  continue: { sroffset: 2, continue: '-||' },
  query: {
    searchinfo: { totalhits: 23817 },
    search: [
      { ns: 0, title: 'Paris', pageid: 22989, size: 400000, wordcount: 30000, snippet: '<span class="searchmatch">Paris</span> is the capital &amp; largest city of France', timestamp: '2024-01-01T00:00:00Z' },
      { ns: 0, title: 'Paris Saint-Germain F.C.', pageid: 1, snippet: 'Football club &quot;PSG&quot; &#8211; founded 1970' },
      { ns: 0, title: 'AC/DC: Live', pageid: 2, snippet: '' },
      { ns: 0, pageid: 3, snippet: 'no title: skipped' },
    ],
  },
};

describe('Wikipedia', () => {
  test('request URL: search API with origin=* (CORS without credentials)', () => {
    const url = new URL(searchProvider({ type: 'wikipedia', lang: 'de' }).url('Eiffel tower & co', 5));
    expect(url.origin).toBe('https://de.wikipedia.org');
    expect(url.pathname).toBe('/w/api.php');
    expect(Object.fromEntries(url.searchParams)).toEqual({ action: 'query', list: 'search', format: 'json', origin: '*', srlimit: '5', srsearch: 'Eiffel tower & co' });
  });

  test('results become page URLs, titles and plain-text snippets', () => {
    expect(parseWikipediaSearch(wikipediaAnswer, 'en')).toEqual([
      { url: 'https://en.wikipedia.org/wiki/Paris', title: 'Paris', snippet: 'Paris is the capital & largest city of France' },
      { url: 'https://en.wikipedia.org/wiki/Paris_Saint-Germain_F.C.', title: 'Paris Saint-Germain F.C.', snippet: 'Football club "PSG" – founded 1970' },
      { url: 'https://en.wikipedia.org/wiki/AC/DC:_Live', title: 'AC/DC: Live', snippet: '' },
    ]);
  });

  test('the provider keeps at most the limit', () => {
    expect(searchProvider().parse(wikipediaAnswer, 1)).toHaveLength(1);
  });

  test('no hits is an empty list; an API error or foreign JSON is an error', () => {
    expect(parseWikipediaSearch({ query: { search: [] } }, 'en')).toEqual([]);
    expect(() => parseWikipediaSearch({ error: { code: 'x', info: 'Bad search' } }, 'en')).toThrow('Wikipedia answered with an error: Bad search');
    expect(() => parseWikipediaSearch({ hello: 1 }, 'en')).toThrow(/not a search result/);
    expect(() => parseWikipediaSearch(null, 'en')).toThrow(/not a search result/);
  });

  test('language codes are checked (they become a host name)', () => {
    expect(() => searchProvider({ type: 'wikipedia', lang: 'evil.com/x' })).toThrow(/not a Wikipedia language code/);
  });
});

describe('SearXNG', () => {
  test('request URL: {base}/search?q=…&format=json', () => {
    expect(searchProvider({ type: 'searxng', baseUrl: 'http://127.0.0.1:8888/' }).url('a b', 5)).toBe('http://127.0.0.1:8888/search?q=a+b&format=json');
  });

  test('results: http(s) URLs only, title falls back to the URL, snippet from content', () => {
    const answer = {
      query: 'paris',
      number_of_results: 3,
      results: [
        { url: 'https://example.org/paris', title: 'Paris guide', content: 'All about <b>Paris</b>', engine: 'x' },
        { url: 'https://example.org/no-title', content: null },
        { url: 'javascript:alert(1)', title: 'bad' },
        { title: 'no url' },
      ],
      answers: [],
      infoboxes: [],
    };
    expect(parseSearxng(answer)).toEqual([
      { url: 'https://example.org/paris', title: 'Paris guide', snippet: 'All about Paris' },
      { url: 'https://example.org/no-title', title: 'https://example.org/no-title', snippet: '' },
    ]);
  });

  test('JSON without results (format=json disabled answers HTML, or another API)', () => {
    expect(() => parseSearxng({ error: 'nope' })).toThrow(/no "results" list/);
  });
});
