/**
 * End-to-end harness: Chromium through playwright-core (no bundled browser downloads here)
 * and the production build served on 127.0.0.1 at a random port.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** Serves `dist/` (run `vite build` first) like `npm start` does. */
export async function serveDist(): Promise<Served> {
  // The project's vite.config.ts applies, as for `npm start` (e.g. no CORS headers).
  const server = await preview({
    root,
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

/**
 * Opens the app with test models and waits until `startLocalRuntime` resolved (the page
 * then exposes `window.sdk`, `window.OpenAI` and `window.localRuntime`).
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
