/**
 * A small "web" on its own 127.0.0.1 port for the web-search e2e tests: a SearXNG-style
 * JSON search endpoint and HTML pages — all with `Access-Control-Allow-Origin: *` except
 * `/pages/no-cors.html`, which a browser must refuse to let the runtime read — and
 * `/redirect?status=302&to=<URL>`, which redirects there.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const paris = readFileSync(new URL('../fixtures/web/paris.html', import.meta.url), 'utf8');

export interface FixtureWeb {
  origin: string;
  /** `METHOD /path?query` of every request received, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function serveFixtureWeb(): Promise<FixtureWeb> {
  const requests: string[] = [];
  let origin = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const cors = { 'access-control-allow-origin': '*' };
    if (url.pathname === '/search' && url.searchParams.get('format') === 'json') {
      res.writeHead(200, { ...cors, 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          query: url.searchParams.get('q'),
          number_of_results: 2,
          results: [
            { url: `${origin}/pages/paris.html`, title: 'Paris – Fixture Encyclopedia', content: 'Paris is the <b>capital</b> of France.', engine: 'fixture' },
            { url: `${origin}/pages/no-cors.html`, title: 'A page without CORS', content: 'Cannot be read from a browser.', engine: 'fixture' },
          ],
        }),
      );
    } else if (url.pathname === '/pages/paris.html') {
      res.writeHead(200, { ...cors, 'content-type': 'text/html; charset=utf-8' });
      res.end(paris);
    } else if (url.pathname === '/pages/no-cors.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><head><title>Secret</title></head><body><p>You should not be able to read this.</p></body></html>');
    } else if (url.pathname === '/redirect' && url.searchParams.get('to')) {
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { ...cors, location: url.searchParams.get('to')! });
      res.end();
    } else {
      res.writeHead(404, { ...cors, 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
