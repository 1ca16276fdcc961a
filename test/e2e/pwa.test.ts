/**
 * The installable PWA: a valid manifest with the project's icons and Chromium's
 * installability check; the Workbox precache (app shell, then pyodide) so a reload with the
 * network off opens the app, lists the conversations and chats; and an app update that is
 * offered, not forced — never while an answer streams.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CHROMIUM_ARGS, startE2E, waitForRuntime } from '../support/browser';
import { DESKTOP, lastTurn, openChat, poll, screenshot, script, send, waitForAnswer } from './app-support';

let e2e: Awaited<ReturnType<typeof startE2E>>;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

/** Resolves once the service worker's precache holds `path`. */
function precached(page: Page, path: string): Promise<boolean> {
  return page.evaluate(async (p) => {
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      if ((await cache.keys()).some((r) => new URL(r.url).pathname === p)) return true;
    }
    return false;
  }, path);
}

test('the manifest is valid, its icons load at their sizes, and Chromium finds the app installable', async () => {
  // A profile on disk: Chromium never offers to install from an incognito-like context.
  const profile = await mkdtemp(join(tmpdir(), 'pwa-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    viewport: DESKTOP,
  });
  const page = await openChat(context, e2e.app.origin);
  const cdp = await context.newCDPSession(page);
  const { errors, parsed } = (await cdp.send('Page.getAppManifest')) as { errors: unknown[]; parsed?: unknown; url: string };
  expect(errors).toEqual([]);
  expect(parsed).toBeTruthy();
  const manifest = await page.evaluate(async () => (await (await fetch('/manifest.webmanifest')).json()) as { name: string; short_name: string; start_url: string; display: string; icons: Array<{ src: string; sizes: string; type: string; purpose: string }> });
  expect(manifest).toMatchObject({ name: 'Local Responses', short_name: 'Local Responses', start_url: '/', display: 'standalone' });
  // Every PNG icon is the size it claims (rendered from public/icons/*.svg).
  for (const icon of manifest.icons.filter((i) => i.type === 'image/png')) {
    const size = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return `${img.naturalWidth}x${img.naturalHeight}`;
    }, icon.src);
    expect(size).toBe(icon.sizes);
  }
  expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
  // Chromium's own check (the one behind the install prompt).
  await poll(async () => ((await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] }).installabilityErrors, { timeout: 15_000 })
    .toEqual([]);
  await context.close();
  await rm(profile, { recursive: true, force: true });
});

test('offline: a reload opens the app from the precache, lists the conversations and chats with a model it has', async () => {
  const context = await e2e.browser.newContext({ viewport: DESKTOP });
  const page = await openChat(context, e2e.app.origin);
  await send(page, 'Hello before going offline');
  await waitForAnswer(page);
  // The app shell is precached at install; pyodide (with the other deferred files) is kept
  // after the app is ready (src/pwa/offline-files.ts).
  await page.waitForFunction(() => window.localRuntime!.offlineFiles.current()?.state === 'done', undefined, { timeout: 60_000, polling: 200 });
  const shell = await page.evaluate(() => [...document.scripts].map((s) => new URL(s.src || location.href).pathname).find((p) => p.startsWith('/assets/'))!);
  expect(await precached(page, '/index.html')).toBe(true);
  expect(await precached(page, shell)).toBe(true);
  expect(await precached(page, '/manifest.webmanifest')).toBe(true);
  expect(await precached(page, '/pyodide/pyodide.asm.wasm')).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await waitForRuntime(page);
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);
  const row = page.locator('li.conversation').first();
  expect(await row.locator('.conversation-title').innerText()).toBe('Hello before going offline');
  await row.locator('.conversation-open').click();
  await poll(() => page.locator('li.turn').count()).toBe(1);
  await send(page, 'Still here offline?');
  await waitForAnswer(page);
  expect(await lastTurn(page).locator('.markdown').innerText()).toBe('You said: Still here offline?');
  expect(await page.locator('.runtime-badge').innerText()).toContain('Offline');
  await screenshot(page, 'desktop-offline');
  await context.setOffline(false);
  await context.close();
});

test('an update is offered with a banner, not forced: not while an answer streams, and the page reloads on click', async () => {
  const context: BrowserContext = await e2e.browser.newContext({ viewport: DESKTOP });
  // Another tab of the app, open while the update is applied, is told rather than reloaded.
  const other = await openChat(context, e2e.app.origin);
  const page = await openChat(context, e2e.app.origin);
  let navigations = 0;
  let otherNavigations = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations++;
  });
  other.on('framenavigated', (frame) => {
    if (frame === other.mainFrame()) otherNavigations++;
  });
  await send(page, script('a slow answer that is still streaming when the update arrives', { delay_ms: 80, chunk: 2 }));
  await page.getByRole('button', { name: 'Stop answer' }).waitFor();

  // A new version of the service worker (another script URL is an update too): it installs and waits.
  const before = await page.evaluate(async () => {
    const active = (await navigator.serviceWorker.getRegistration('/'))!.active!.scriptURL;
    await navigator.serviceWorker.register('/sw.js?version=2', { scope: '/' });
    return active;
  });
  const banner = page.getByRole('status').filter({ hasText: 'Update available' });
  await banner.waitFor({ timeout: 20_000 });
  const reload = banner.getByRole('button');
  // Mid-answer, the reload waits for the answer.
  expect(await reload.innerText()).toBe('Reload after this answer');
  expect(await reload.isDisabled()).toBe(true);
  expect(await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL)).toBe(before);
  await screenshot(page, 'desktop-update-banner');

  await waitForAnswer(page);
  expect(await reload.innerText()).toBe('Reload');
  expect(navigations).toBe(0);
  await reload.click();
  await poll(() => navigations).toBe(1);
  await other.getByRole('status').filter({ hasText: 'The app was updated in another tab' }).waitFor();
  expect(otherNavigations).toBe(0);
  await waitForRuntime(page);
  expect(await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL)).toMatch(/\/sw\.js\?version=2$/);
  // The conversation is still there after the update.
  expect(await page.locator('li.conversation').count()).toBe(1);
  await context.close();
});
