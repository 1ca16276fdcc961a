/**
 * End-to-end harness: Chromium through playwright-core (no bundled browser downloads here)
 * and the production build served on 127.0.0.1 at a random port.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { preview } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Flags that keep headless Chromium off the internet (see ../shared/TESTING.md). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export interface Served {
  origin: string;
  close(): Promise<void>;
}

/** Serves `dist/` (run `vite build` first) like `npm start` does; of another checkout at `from` (benchmarks' baseline). */
export async function serveDist(from: string = root): Promise<Served> {
  // The project's vite.config.ts applies, as for `npm start` (e.g. no CORS headers).
  const server = await preview({
    root: from,
    logLevel: 'warn',
    preview: { host: '127.0.0.1', port: 0, strictPort: true },
  });
  const { port } = server.httpServer.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.close() };
}

/** Serves one HTML page on another port: a different origin from the app. */
export async function serveOtherOrigin(html: string): Promise<Served> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What a test configures the runtime with: the app's stored settings, not the URL. */
export interface RuntimeSettings {
  /** Model mirror (`localStorage['local-responses/model-base']`, see src/client/model-base.ts). */
  modelBase?: string;
  /** Stored runtime options (`localStorage['local-responses/runtime-options']`, see src/client/stored-runtime-options.ts). */
  options?: { tools?: unknown; bodyMode?: 'stream' | 'chunks'; cpu?: { threads?: number }; fileSearch?: { embeddingModel?: string } };
}

/**
 * Stores runtime settings for `origin` before any page of the context loads, as a
 * settings screen would have (a link cannot: the app reads no configuration from its URL).
 */
export async function configureRuntime(context: BrowserContext, origin: string, settings: RuntimeSettings): Promise<void> {
  await context.addInitScript(
    ({ origin, settings }) => {
      // Every frame runs this: only the app's own documents (the sandbox frame has no storage).
      if (location.origin !== origin) return;
      if (settings.modelBase !== undefined) localStorage.setItem('local-responses/model-base', settings.modelBase);
      if (settings.options !== undefined) localStorage.setItem('local-responses/runtime-options', JSON.stringify(settings.options));
    },
    { origin, settings },
  );
}

/**
 * Opens the app with test models (the one thing its URL may ask for) and waits until
 * `startLocalRuntime` resolved (the page then exposes `window.sdk`, `window.OpenAI` and
 * `window.localRuntime`). Configure the runtime first with {@link configureRuntime}.
 */
export async function openApp(context: BrowserContext, origin: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${origin}/?test-models`);
  await waitForRuntime(page);
  return page;
}

export async function waitForRuntime(page: Page): Promise<void> {
  const state = page.locator('[data-runtime-state]:not([data-runtime-state="starting"])');
  await state.waitFor({ timeout: 30_000 });
  if ((await state.getAttribute('data-runtime-state')) !== 'ready') {
    throw new Error(`runtime did not start: ${await state.textContent()}`);
  }
  await page.waitForFunction(() => window.sdk !== undefined);
}

/** Number of runtime workers alive in this browser profile (each holds a runtime lock). */
export function countRuntimes(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const { held = [] } = await navigator.locks.query();
    return held.filter((lock) => lock.name?.startsWith('local-responses/runtime/')).length;
  });
}

/** Starts a browser and the app server for one test file. */
export async function startE2E(): Promise<{ browser: Browser; app: Served; close(): Promise<void> }> {
  const [browser, app] = await Promise.all([launchChromium(), serveDist()]);
  return {
    browser,
    app,
    async close() {
      await Promise.all([browser.close(), app.close()]);
    },
  };
}

export interface ModelMirror extends Served {
  /** Base URL to configure as the model mirror (ends in `/`; see {@link configureRuntime}). */
  base: string;
  /** Paths of the GET/HEAD requests answered so far (404s included). */
  requests: string[];
}

const CONTENT_TYPES: Record<string, string> = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };

/**
 * Serves the files of `dir` as a model mirror on its own 127.0.0.1 port: a different
 * origin from the app, as Hugging Face or a CDN mirror would be, so the runtime's
 * downloads go through CORS (`Access-Control-Allow-Origin: *`, as Hugging Face sends) and
 * never through the service worker. GET and HEAD (wllama asks for sizes with HEAD);
 * anything missing is a plain 404. Files are read at request time, so a test may add or
 * remove some between requests.
 *
 * @example
 * const mirror = await serveModelMirror(dir);
 * await configureRuntime(context, app.origin, { modelBase: mirror.base });
 * const page = await openApp(context, app.origin);
 */
export async function serveModelMirror(dir: string): Promise<ModelMirror> {
  const root = path.resolve(dir);
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'content-length, etag' };
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://mirror').pathname);
    requests.push(`${req.method} ${pathname}`);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'access-control-allow-methods': 'GET, HEAD', 'access-control-allow-headers': '*' });
      return res.end();
    }
    const file = path.join(root, pathname);
    let size = -1;
    try {
      const stat = fs.statSync(file);
      // Nothing outside `dir` (`path.join` resolves `..`).
      if (stat.isFile() && file.startsWith(root + path.sep)) size = stat.size;
    } catch {
      // missing: answered below
    }
    if (size < 0 || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(size < 0 ? 404 : 405, { ...cors, 'content-type': 'text/plain' });
      return res.end(size < 0 ? `Not found: ${pathname}` : 'Method not allowed');
    }
    const type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
    res.writeHead(200, { ...cors, 'content-type': type, 'content-length': String(size), 'cache-control': 'no-store' });
    if (req.method === 'HEAD') return res.end();
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    base: `${origin}/`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
