/** Shared by the chat app's end-to-end tests (`app*.test.ts`, `pwa*.test.ts`). */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { waitForRuntime } from '../support/browser';

export const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

const DOCS_IMAGES = fileURLToPath(new URL('../../docs/images/', import.meta.url));

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Saves a screenshot of the page as it is (kept as a test artifact; gitignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  // No blinking caret or pulsing dots in the pictures.
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, animations: 'disabled', caret: 'hide' });
}

/**
 * With `UPDATE_SCREENSHOTS=1`, also saves the page as `docs/images/<name>.png`, the picture
 * the README shows: made by the suite, so it is always the real app. Without it, nothing.
 */
export async function docsScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  await mkdir(DOCS_IMAGES, { recursive: true });
  await page.screenshot({ path: `${DOCS_IMAGES}${name}.png`, animations: 'disabled', caret: 'hide' });
}

/**
 * Opens the chat app, waits for the runtime and, unless the profile already uses it,
 * chooses the scripted test model in the model picker as a person would (a link cannot
 * choose the model).
 */
export async function openChat(context: BrowserContext, origin: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${origin}/?test-models`);
  await waitForRuntime(page);
  // The settings are loaded once the runtime is ready (it starts with them). No `poll`
  // here: this also runs in `beforeAll`, where `expect` is not available.
  const picker = page.locator('button.model-button');
  const chosen = picker.filter({ hasText: /^\s*test[ -]scripted\s*$/ });
  if ((await chosen.count()) === 0) {
    await picker.click();
    const dialog = page.getByRole('dialog', { name: 'Models' });
    await dialog.locator('li.model[data-model-id="test-scripted"]').getByRole('button', { name: 'Use' }).click();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await chosen.waitFor();
  }
  return page;
}

/** Types `text` in the composer and sends it with Enter. */
export async function send(page: Page, text: string): Promise<void> {
  const input = page.getByLabel('Message', { exact: true });
  await input.fill(text);
  await input.press('Enter');
}

export function script(output: string | string[], options: { delay_ms?: number; chunk?: number } = {}): string {
  return JSON.stringify({ script: output, ...options });
}

/** The last turn (message + answer) of the open conversation. */
export function lastTurn(page: Page) {
  return page.locator('li.turn').last();
}

/** Waits until the last answer reached a terminal status, and returns it. */
export async function waitForAnswer(page: Page, status = 'completed'): Promise<void> {
  await lastTurn(page).and(page.locator(`[data-turn-status="${status}"]`)).waitFor({ timeout: 30_000 });
}

/**
 * `expect.poll` with room for a loaded machine (its default gives up after 1 s; a service
 * worker activation or a precache cleanup can take longer while other tests run).
 */
export function poll<T>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) {
  return expect.poll(fn, { timeout: 15_000, ...options });
}

/**
 * Holds back the mirror's model library (`*.wasm` under `/test-mirror/`) in `context`, so a
 * download stays in progress until the returned function lets it go.
 */
export async function holdMirrorDownloads(context: BrowserContext): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await context.route('**/test-mirror/**/*.wasm', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * Waits until the app's settings, as written to its database, have `expected`'s values: the
 * settings dialog saves each change in an IndexedDB transaction of its own, and a reload that
 * comes before it commits starts with the old settings (as a person reloading within a few
 * milliseconds of a change would).
 */
export async function settingsSaved(page: Page, expected: Record<string, unknown>): Promise<void> {
  await page.waitForFunction(
    async (expected) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('local-responses-app');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      try {
        const stored = await new Promise<Record<string, unknown> | undefined>((resolve, reject) => {
          const get = db.transaction('settings').objectStore('settings').get('settings');
          get.onsuccess = () => resolve(get.result as Record<string, unknown> | undefined);
          get.onerror = () => reject(get.error);
        });
        return Object.entries(expected).every(([key, value]) => stored?.[key] === value);
      } finally {
        db.close();
      }
    },
    expected,
    { polling: 100, timeout: 10_000 },
  );
}
