import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createPolicyImageFetcher, type PolicyImageFetcherOptions } from './image-fetcher';

const signal = new AbortController().signal;
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'));
const pngUrl = `data:image/png;base64,${Buffer.from(PNG).toString('base64')}`;

interface Seen {
  url: string;
  init: RequestInit | undefined;
}

/** A fetch answering from a table; a missing entry behaves like a CORS failure (TypeError). */
function fakeFetch(table: Record<string, () => Response>, seen: Seen[]): typeof fetch {
  return async (input, init) => {
    const url = String(input);
    seen.push({ url, init });
    const answer = table[url];
    if (!answer) throw new TypeError('Failed to fetch');
    return answer();
  };
}

const image = (bytes: Uint8Array<ArrayBuffer> = PNG, headers: Record<string, string> = { 'content-type': 'image/png' }) => () => new Response(bytes, { headers });
const moved = (location: string, status = 302) => () => new Response(null, { status, headers: { location } });

function fetcher(table: Record<string, () => Response>, extra: Partial<PolicyImageFetcherOptions> = {}) {
  const seen: Seen[] = [];
  return { seen, images: createPolicyImageFetcher({ policy: { appOrigin: 'https://app.example' }, fetch: fakeFetch(table, seen), ...extra }) };
}

describe('an https: image', () => {
  test('is fetched without credentials or referrer, and handed over as a data: URL', async () => {
    const { images, seen } = fetcher({ 'https://img.example/dot.png': image() });
    expect(await images.fetchImage('https://img.example/dot.png', signal)).toEqual({ ok: true, dataUrl: pngUrl });
    expect(seen[0]!.init).toMatchObject({ credentials: 'omit', referrerPolicy: 'no-referrer', redirect: 'manual', headers: { accept: 'image/*' } });
  });

  test('an undeclared type is read from the first bytes; a page is no image', async () => {
    const { images } = fetcher({
      'https://img.example/blob': image(PNG, { 'content-type': 'application/octet-stream' }),
      'https://img.example/page': image(new TextEncoder().encode('<html>'), { 'content-type': 'text/html; charset=utf-8' }),
      'https://img.example/bytes': image(new Uint8Array([1, 2, 3]), {}),
    });
    expect(await images.fetchImage('https://img.example/blob', signal)).toEqual({ ok: true, dataUrl: pngUrl });
    expect(await images.fetchImage('https://img.example/page', signal)).toEqual({ ok: false, reason: 'https://img.example/page is not an image (it is text/html)' });
    expect(await images.fetchImage('https://img.example/bytes', signal)).toMatchObject({ ok: false, reason: expect.stringContaining('is not an image') });
  });

  test('larger than the limit: refused by its declared length unread, or cut while read', async () => {
    const big = new Uint8Array(2048).fill(1);
    big.set(PNG);
    const { images } = fetcher(
      {
        'https://img.example/declared': image(big, { 'content-type': 'image/png', 'content-length': '2048' }),
        'https://img.example/streamed': () => new Response(new Blob([big]).stream(), { headers: { 'content-type': 'image/png' } }),
        'https://img.example/small': image(),
      },
      { maxBytes: 1024 * 1024 * 0.001 },
    );
    for (const path of ['declared', 'streamed'])
      expect(await images.fetchImage(`https://img.example/${path}`, signal)).toMatchObject({ ok: false, reason: expect.stringMatching(/is larger than .* MB, the limit for an image$/) });
    expect((await images.fetchImage('https://img.example/small', signal)).ok).toBe(true);
  });

  test('an HTTP error, a CORS failure and a slow server each say so', async () => {
    const { images } = fetcher({ 'https://img.example/gone': () => new Response('no', { status: 404, statusText: 'Not Found' }) });
    expect(await images.fetchImage('https://img.example/gone', signal)).toEqual({ ok: false, reason: 'https://img.example/gone answered HTTP 404 Not Found' });
    expect(await images.fetchImage('https://img.example/cors', signal)).toEqual({
      ok: false,
      reason: 'https://img.example/cors could not be fetched: offline, or its server does not allow cross-origin requests (CORS) (TypeError: Failed to fetch)',
    });
    const slow = createPolicyImageFetcher({
      policy: { appOrigin: 'https://app.example' },
      timeoutMs: 50,
      fetch: (_url, init) => new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason))),
    });
    expect(await slow.fetchImage('https://img.example/slow', signal)).toEqual({ ok: false, reason: 'https://img.example/slow did not answer within 0.05 s' });
  });

  test("the caller's abort rejects (it is no answer about the image)", async () => {
    const controller = new AbortController();
    const { images } = fetcher({});
    controller.abort(new Error('client gone'));
    await expect(images.fetchImage('https://img.example/x.png', controller.signal)).rejects.toThrow('client gone');
  });
});

describe('refused before anything is requested', () => {
  test.each([
    ['http://img.example/x.png', 'only https: image URLs are fetched'],
    ['https://127.0.0.1/x.png', '127.0.0.1 is a loopback address'],
    ['https://localhost:8443/x.png', 'localhost:8443 is a local host name'],
    ['https://[::1]/x.png', '[::1] is a loopback address'],
    ['https://192.168.1.10/x.png', '192.168.1.10 is a private address'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254 is a linkLocal address'],
    ['https://app.example/v1/files', 'this app’s own origin is never fetched'],
    ['ftp://img.example/x.png', 'ftp: URLs are not fetched'],
    ['not a url', 'is not an absolute URL'],
  ])('%s', async (url, reason) => {
    const { images, seen } = fetcher({});
    const answer = await images.fetchImage(url, signal);
    expect(answer).toMatchObject({ ok: false, reason: expect.stringContaining(reason) });
    expect(seen).toEqual([]);
  });
});

describe('redirects, each hop checked before it is requested', () => {
  test('to a private host, to http: or from a fetch that followed one itself: refused, and not requested', async () => {
    const { images, seen } = fetcher({
      'https://img.example/a': moved('https://10.0.0.1/x.png'),
      'https://img.example/b': moved('http://img.example/x.png', 301),
      'https://img.example/c': () => Object.defineProperty(image()(), 'url', { value: 'https://127.0.0.1/x.png' }),
    });
    expect(await images.fetchImage('https://img.example/a', signal)).toEqual({
      ok: false,
      reason: 'https://img.example/a redirected to https://10.0.0.1/x.png, which is not fetched: 10.0.0.1 is a private address; images are fetched from public hosts only',
    });
    expect(await images.fetchImage('https://img.example/b', signal)).toEqual({ ok: false, reason: 'https://img.example/b redirected to http://img.example/x.png, which is not fetched: only https: image URLs are fetched' });
    expect(await images.fetchImage('https://img.example/c', signal)).toMatchObject({ ok: false, reason: expect.stringContaining('redirected to https://127.0.0.1/x.png, which is not fetched') });
    expect(seen.map((s) => s.url)).toEqual(['https://img.example/a', 'https://img.example/b', 'https://img.example/c']);
  });

  test('allowed hops are followed (a relative Location too), at most five', async () => {
    const { images, seen } = fetcher({
      'https://img.example/old': moved('/new'),
      'https://img.example/new': moved('https://cdn.example/dot.png', 307),
      'https://cdn.example/dot.png': image(),
      'https://img.example/loop': moved('/loop'),
    });
    expect(await images.fetchImage('https://img.example/old', signal)).toEqual({ ok: true, dataUrl: pngUrl });
    expect(seen.map((s) => s.url)).toEqual(['https://img.example/old', 'https://img.example/new', 'https://cdn.example/dot.png']);
    expect(await images.fetchImage('https://img.example/loop', signal)).toEqual({ ok: false, reason: 'https://img.example/loop redirected more than 5 times' });
  });

  test('a redirect the browser hides is not followed', async () => {
    const { images } = fetcher({ 'https://img.example/hidden': () => Object.defineProperty(new Response(null, { status: 200 }), 'type', { value: 'opaqueredirect' }) });
    expect(await images.fetchImage('https://img.example/hidden', signal)).toMatchObject({ ok: false, reason: expect.stringContaining('not followed') });
  });
});

describe('with the real fetch, a local server sees no request', () => {
  const servers: http.Server[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) s.close();
  });

  test('for its http: URL, its loopback https: URL, or as localhost', async () => {
    const requests: string[] = [];
    const s = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    });
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    servers.push(s);
    const port = (s.address() as AddressInfo).port;
    const images = createPolicyImageFetcher({ policy: { appOrigin: 'https://app.example' } });
    for (const url of [`http://127.0.0.1:${port}/x.png`, `https://127.0.0.1:${port}/x.png`, `https://localhost:${port}/x.png`, `https://[::ffff:127.0.0.1]:${port}/x.png`])
      expect((await images.fetchImage(url, signal)).ok, url).toBe(false);
    expect(requests).toEqual([]);
  });
});
