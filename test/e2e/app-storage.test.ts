/**
 * Issue 12 finding 11, the app side, in Chromium: the retention setting reaches the runtime
 * at start (from the app's settings) and at once when changed; the storage view shows the
 * space per chat and from code; "Clean up now" deletes the oldest chat's responses (and its
 * conversation: the chat leaves the sidebar).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startE2E, waitForRuntime } from '../support/browser';
import { DESKTOP, openChat, poll, screenshot, send, waitForAnswer } from './app-support';

let e2e: Awaited<ReturnType<typeof startE2E>>;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E();
  context = await e2e.browser.newContext({ viewport: DESKTOP });
  page = await openChat(context, e2e.app.origin);
});
afterAll(async () => {
  await context?.close();
  await e2e?.close();
});

interface Stored {
  id: string;
  bytes: number;
}
const storedIds = () => page.evaluate(async () => ((await (await fetch('/v1/local/responses?order=asc&limit=100')).json()) as { data: Stored[] }).data.map((d) => d.id));
const storage = () => page.evaluate(async () => (await (await fetch('/v1/local/storage')).json()) as { bytes: number; retention: { max_age_days: number | null; max_bytes: number | null } });

test('a small retention from the settings, the storage view per chat, and "Clean up now" deleting the oldest chat', async () => {
  // Chat A (two turns), then, a second later (retention goes by the second), chat B.
  await send(page, 'chat A, first');
  await waitForAnswer(page);
  await send(page, 'chat A, second');
  await waitForAnswer(page);
  await page.waitForTimeout(1100);
  await page.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'chat B');
  await waitForAnswer(page);
  const [a1, a2, b1] = await storedIds();
  expect(await storage()).toMatchObject({ retention: { max_age_days: 90, max_bytes: 200_000_000 } });

  // A budget the three fit in, but not one more response: stored in the app's settings (as
  // a Custom value the dialog cannot offer), so it reaches the runtime at the next start.
  const budget = (await storage()).bytes + 300;
  await page.evaluate(async (maxBytes) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('local-responses-app');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const store = db.transaction('settings', 'readwrite').objectStore('settings');
    await new Promise<void>((resolve, reject) => {
      const get = store.get('settings');
      get.onsuccess = () => {
        const put = store.put({ ...get.result, retention: { maxAgeDays: null, maxBytes } }, 'settings');
        put.onsuccess = () => resolve();
        put.onerror = () => reject(put.error);
      };
    });
    db.close();
  }, budget);
  await page.reload();
  await waitForRuntime(page);
  expect((await storage()).retention).toEqual({ max_age_days: null, max_bytes: budget });
  expect(await storedIds()).toEqual([a1, a2, b1]);

  // A response from code, outside the app's chats: now over the budget.
  const fromCode = await page.evaluate(async () => (await window.sdk!.responses.create({ model: 'test-scripted', input: 'from code' })).id);

  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const table = dialog.getByRole('table', { name: 'Storage used by chat' });
  await poll(() => table.locator('tbody tr').count()).toBe(3);
  const rowA = table.getByRole('row', { name: /chat A, first/ });
  expect(await rowA.getByRole('cell').allInnerTexts()).toEqual(['2', expect.stringMatching(/^[\d.]+ kB$/)]);
  expect(await table.getByRole('row', { name: /chat B/ }).getByRole('cell').first().innerText()).toBe('1');
  expect(await table.getByRole('row', { name: /Not from a chat in this app/ }).getByRole('cell').first().innerText()).toBe('1');
  expect(await table.locator('caption').innerText()).toMatch(/^[\d.]+ kB used by 4 responses$/);
  const sizeSelect = dialog.getByLabel('Keep up to');
  expect(await sizeSelect.locator('option:checked').innerText()).toMatch(/^Custom: [\d.]+ kB$/);
  await table.scrollIntoViewIfNeeded();
  await screenshot(page, 'storage-before-cleanup');

  await dialog.getByRole('button', { name: 'Clean up now' }).click();
  await poll(() => dialog.locator('.storage-actions [role=status]').innerText()).toMatch(/^Clean up: deleted 2 responses \([\d.]+ kB\)\.$/);
  expect(await storedIds()).toEqual([b1, fromCode]);
  await poll(() => table.locator('tbody tr').count()).toBe(2);
  // Chat A's conversation went with its responses (retention prunes them as one): the sidebar lists chat B alone.
  await poll(() => page.locator('li.conversation .conversation-title').allInnerTexts()).toEqual(['chat B']);
  await screenshot(page, 'storage-after-cleanup');

  // A change of the setting is in force in the running runtime at once, and saved.
  await sizeSelect.selectOption({ label: 'No limit' });
  await poll(async () => (await storage()).retention).toEqual({ max_age_days: null, max_bytes: null });
  await dialog.getByLabel('Keep chats for').selectOption({ label: '30 days' });
  await poll(async () => (await storage()).retention).toEqual({ max_age_days: 30, max_bytes: null });
  await page.keyboard.press('Escape');
  await page.reload();
  await waitForRuntime(page);
  expect((await storage()).retention).toEqual({ max_age_days: 30, max_bytes: null });
});
