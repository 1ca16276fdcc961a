import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createFetchWebSearch, type FetchWebSearchOptions } from './fetch-web-search';

const paris = readFileSync(new URL('../../../test/fixtures/web/paris.html', import.meta.url), 'utf8');
const signal = new AbortController().signal;

interface Seen {
  url: string;
  init: RequestInit | undefined;
}

/** A fetch answering from a table; a missing entry behaves like a CORS failure (TypeError). */
function fakeFetch(table: Record<string, () => Response>, seen: Seen[] = []): typeof fetch {
  return async (input, init) => {
    const url = String(input);
    seen.push({ url, init });
    const answer = table[url];
    if (!answer) throw new TypeError('Failed to fetch');
    return answer();
  };
}

const html = (body: string, headers: Record<string, string> = {}) => () => new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8', ...headers } });

function web(table: Record<string, () => Response>, extra: Partial<FetchWebSearchOptions> = {}, seen: Seen[] = []) {
  return createFetchWebSearch({
    policy: { appOrigin: 'https://app.example' },
    provider: { type: 'searxng', baseUrl: 'https://searx.example' },
    fetch: fakeFetch(table, seen),
    online: () => true,
    ...extra,
  });
}

describe('search', () => {
  test('asks the provider without credentials or referrer, and returns its sources', async () => {
    const seen: Seen[] = [];
    const port = web(
      {
        'https://searx.example/search?q=paris&format=json': () =>
          Response.json({ results: [{ url: 'https://example.org/paris', title: 'Paris', content: 'capital' }] }),
      },
      {},
      seen,
    );
    expect(await port.search('paris', signal)).toEqual([{ url: 'https://example.org/paris', title: 'Paris', snippet: 'capital' }]);
    expect(seen[0]!.init).toMatchObject({ credentials: 'omit', referrerPolicy: 'no-referrer', headers: { accept: 'application/json' } });
  });

  test('a provider answering HTML instead of JSON', async () => {
    const port = web({ 'https://searx.example/search?q=x&format=json': html('<html>captcha</html>') });
    await expect(port.search('x', signal)).rejects.toThrow('the search provider SearXNG at https://searx.example answered with something that is not JSON');
  });

  test('a private provider needs the allowance', async () => {
    const table = { 'http://127.0.0.1:8888/search?q=x&format=json': () => Response.json({ results: [] }) };
    const provider = { type: 'searxng' as const, baseUrl: 'http://127.0.0.1:8888' };
    await expect(web(table, { provider }).search('x', signal)).rejects.toThrow(/127\.0\.0\.1:8888 is a loopback address/);
    const allowed = web(table, { provider, policy: { appOrigin: 'https://app.example', allowPrivateNetwork: true } });
    expect(await allowed.search('x', signal)).toEqual([]);
  });
});

describe('open_page and find_in_page', () => {
  test('reads the article, cut to the token budget; find searches the whole page without fetching again', async () => {
    const seen: Seen[] = [];
    const port = web({ 'https://example.org/paris': html(paris) }, { pageTokens: 60 }, seen);
    const page = await port.openPage('https://example.org/paris', signal);
    expect(page.url).toBe('https://example.org/paris');
    expect(page.title).toMatch(/Paris/);
    const [body, note] = page.text.split('\n\n');
    expect(body!.length).toBeLessThanOrEqual(240);
    expect(body).toMatch(/^Paris is the capital/);
    expect(note).toMatch(/The page goes on/);
    const found = await port.findInPage('https://example.org/paris', 'louvre', signal);
    expect(found).toEqual({ url: 'https://example.org/paris', matches: ["## Landmarks\n- The Louvre, the world's most-visited art museum"] });
    expect(seen).toHaveLength(1);
  });

  test('a URL without a scheme is read as https', async () => {
    const port = web({ 'https://example.org/paris': html(paris) });
    expect((await port.openPage('example.org/paris', signal)).url).toBe('https://example.org/paris');
  });

  test('plain text pages are read as they are', async () => {
    const port = web({ 'https://example.org/a.txt': () => new Response('line one\nline two', { headers: { 'content-type': 'text/plain' } }) });
    expect(await port.openPage('https://example.org/a.txt', signal)).toEqual({ url: 'https://example.org/a.txt', title: 'https://example.org/a.txt', text: 'line one\nline two' });
  });

  test('the charset the server names is used', async () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode('<p>caf'), 0xe9, ...new TextEncoder().encode('</p>')]);
    const port = web({ 'https://example.org/l1': () => new Response(latin1, { headers: { 'content-type': 'text/html; charset=ISO-8859-1' } }) });
    expect((await port.openPage('https://example.org/l1', signal)).text).toBe('café');
  });
});

describe('failures say why', () => {
  test('CORS or offline (fetch TypeError)', async () => {
    await expect(web({}).openPage('https://no-cors.example/page', signal)).rejects.toThrow(
      'https://no-cors.example/page could not be fetched: offline, or the site does not allow cross-origin requests (CORS) (TypeError: Failed to fetch)',
    );
  });

  test('the browser knows it is offline', async () => {
    await expect(web({}, { online: () => false }).search('x', signal)).rejects.toThrow('could not be fetched: the browser is offline');
  });

  test('HTTP errors', async () => {
    const port = web({ 'https://example.org/gone': () => new Response('nope', { status: 404, statusText: 'Not Found' }) });
    await expect(port.openPage('https://example.org/gone', signal)).rejects.toThrow('https://example.org/gone answered HTTP 404 Not Found');
  });

  test('the URL policy: this app, other schemes, private addresses', async () => {
    const port = web({});
    await expect(port.openPage('https://app.example/v1/models', signal)).rejects.toThrow(/was not fetched: this app’s own origin is never fetched/);
    await expect(port.openPage('file:///etc/passwd', signal)).rejects.toThrow(/file: URLs are not fetched/);
    await expect(port.findInPage('http://192.168.0.1/admin', 'x', signal)).rejects.toThrow(/192\.168\.0\.1 is a private address/);
  });

  test('a redirect to a private address is refused', async () => {
    const redirected = () => {
      const response = new Response('<p>router admin</p>', { headers: { 'content-type': 'text/html' } });
      Object.defineProperty(response, 'url', { value: 'http://10.0.0.1/admin' });
      return response;
    };
    await expect(web({ 'https://short.example/x': redirected }).openPage('https://short.example/x', signal)).rejects.toThrow(
      'https://short.example/x redirected to http://10.0.0.1/admin, which is not fetched: 10.0.0.1 is a private address',
    );
  });

  test('not a readable page', async () => {
    const port = web({ 'https://example.org/a.pdf': () => new Response('%PDF', { headers: { 'content-type': 'application/pdf' } }) });
    await expect(port.openPage('https://example.org/a.pdf', signal)).rejects.toThrow('https://example.org/a.pdf is not a readable page (it is application/pdf)');
  });

  test('time limit', async () => {
    const never: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const port = createFetchWebSearch({ policy: { appOrigin: 'https://app.example' }, fetch: never, timeoutMs: 20 });
    await expect(port.openPage('https://slow.example/', signal)).rejects.toThrow('https://slow.example/ did not answer within 0.02 s');
  });

  test('the caller aborting is passed on as the abort', async () => {
    const never: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const controller = new AbortController();
    const port = createFetchWebSearch({ policy: { appOrigin: 'https://app.example' }, fetch: never });
    const opening = port.openPage('https://slow.example/', controller.signal);
    controller.abort(new Error('cancelled by the client'));
    await expect(opening).rejects.toThrow('cancelled by the client');
  });
});

describe('Wikipedia articles', () => {
  test('an article URL is read through the API (articles send no CORS headers); the page keeps its URL', async () => {
    const seen: Seen[] = [];
    const api =
      'https://en.wikipedia.org/w/api.php?action=parse&page=Eiffel_Tower&prop=text&format=json&formatversion=2&redirects=1&disableeditsection=1&disabletoc=1&origin=*';
    const article = {
      parse: {
        title: 'Eiffel Tower',
        pageid: 9232,
        text: '<div class="mw-parser-output"><p>The <b>Eiffel Tower</b> is a wrought-iron lattice tower on the Champ de Mars in Paris, France. It is named after the engineer Gustave Eiffel, whose company designed and built the tower from 1887 to 1889.</p><h2>History</h2><p>The design of the Eiffel Tower is attributed to Maurice Koechlin and Émile Nouguier, two senior engineers working for the Compagnie des Établissements Eiffel.</p></div>',
      },
    };
    const port = web({ [api]: () => Response.json(article) }, {}, seen);
    const page = await port.openPage('https://en.wikipedia.org/wiki/Eiffel_Tower', signal);
    expect(seen.map((s) => s.url)).toEqual([api]);
    expect(page.url).toBe('https://en.wikipedia.org/wiki/Eiffel_Tower');
    expect(page.title).toBe('Eiffel Tower');
    expect(page.text).toContain('The Eiffel Tower is a wrought-iron lattice tower');
    expect(page.text).toContain('## History');
    expect((await port.findInPage('https://en.wikipedia.org/wiki/Eiffel_Tower', 'koechlin', signal)).matches).toHaveLength(1);
    expect(seen).toHaveLength(1);
  });

  test('a missing article', async () => {
    const api =
      'https://en.wikipedia.org/w/api.php?action=parse&page=Nope&prop=text&format=json&formatversion=2&redirects=1&disableeditsection=1&disabletoc=1&origin=*';
    const port = web({ [api]: () => Response.json({ error: { code: 'missingtitle', info: "The page you specified doesn't exist." } }) });
    await expect(port.openPage('https://en.wikipedia.org/wiki/Nope', signal)).rejects.toThrow("Wikipedia answered with an error: The page you specified doesn't exist.");
  });
});

/** A real HTTP server on 127.0.0.1 that records what it is asked and answers from `answer`. */
async function server(answer: (path: string, res: http.ServerResponse) => void) {
  const requests: string[] = [];
  const s = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    answer(req.url ?? '', res);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  servers.push(s);
  return { host: `127.0.0.1:${(s.address() as AddressInfo).port}`, requests };
}
const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

const redirect = (res: http.ServerResponse, status: number, location: string) => {
  res.writeHead(status, { location });
  res.end();
};

/** Node's own fetch: like a browser's, except that `redirect: 'manual'` shows the Location. */
const real = (allowHosts: string[]) => createFetchWebSearch({ policy: { appOrigin: 'https://app.example', allowHosts }, online: () => true });

describe('redirects are followed by hand, each hop checked before it is requested', () => {
  test.each([301, 302, 303, 307, 308])('HTTP %i to a private host: refused, and that host sees no request', async (status) => {
    const inside = await server((_path, res) => res.end('router admin'));
    const allowed = await server((_path, res) => redirect(res, status, `http://${inside.host}/admin`));
    await expect(real([allowed.host]).openPage(`http://${allowed.host}/go`, signal)).rejects.toThrow(
      `http://${allowed.host}/go redirected to http://${inside.host}/admin, which is not fetched: ${inside.host} is a loopback address`,
    );
    expect(allowed.requests).toEqual(['/go']);
    expect(inside.requests).toEqual([]);
  });

  test('to localhost and to [::ffff:127.0.0.1] likewise', async () => {
    const allowed = await server((path, res) => redirect(res, 302, path === '/a' ? 'http://localhost:9/' : 'http://[::ffff:127.0.0.1]:9/'));
    await expect(real([allowed.host]).openPage(`http://${allowed.host}/a`, signal)).rejects.toThrow(/redirected to http:\/\/localhost:9\/, which is not fetched: localhost:9 is a local host name/);
    await expect(real([allowed.host]).openPage(`http://${allowed.host}/b`, signal)).rejects.toThrow(/which is not fetched: \[::ffff:7f00:1\]:9 is a loopback address/);
  });

  test('allowed hops are followed (relative Location too); the page keeps its final URL', async () => {
    const site = await server((path, res) => {
      if (path === '/old') return redirect(res, 301, '/new/');
      if (path === '/new/') return redirect(res, 307, `http://${site.host}/page.html`);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('arrived');
    });
    const page = await real([site.host]).openPage(`http://${site.host}/old`, signal);
    expect(page).toMatchObject({ url: `http://${site.host}/page.html`, text: 'arrived' });
    expect(site.requests).toEqual(['/old', '/new/', '/page.html']);
  });

  test('at most 5 redirects; a redirect without Location', async () => {
    const loop = await server((path, res) => (path === '/bare' ? (res.writeHead(302), res.end()) : redirect(res, 302, `/${Number(path.slice(1)) + 1}`)));
    await expect(real([loop.host]).openPage(`http://${loop.host}/0`, signal)).rejects.toThrow(`http://${loop.host}/0 redirected more than 5 times; not followed further`);
    expect(loop.requests).toEqual(['/0', '/1', '/2', '/3', '/4', '/5']);
    await expect(real([loop.host]).openPage(`http://${loop.host}/bare`, signal)).rejects.toThrow(`http://${loop.host}/bare answered HTTP 302 without a Location to go to`);
  });

  test("a browser's opaque redirect (target hidden) is not followed, and says so", async () => {
    const seen: Seen[] = [];
    const opaque = () => {
      const response = new Response(null);
      Object.defineProperty(response, 'type', { value: 'opaqueredirect' });
      Object.defineProperty(response, 'status', { value: 0 });
      return response;
    };
    await expect(web({ 'https://short.example/x': opaque }, {}, seen).openPage('https://short.example/x', signal)).rejects.toThrow(
      /^https:\/\/short\.example\/x redirected to an address the browser does not show to the runtime, so the redirect was not followed/,
    );
    expect(seen.map((s) => [s.url, s.init?.redirect])).toEqual([['https://short.example/x', 'manual']]);
  });
});
