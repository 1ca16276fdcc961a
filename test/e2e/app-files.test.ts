/**
 * The chat app with files: attach a file to a chat (the button; the page's drop target takes
 * the same path), see it read on its chip, ask — test-scripted searches it and cites it —
 * and see the citation as a file chip; the Files view and the storage view list it; deleting
 * the chat deletes its files. The file's name is hostile HTML: it must show as text
 * everywhere and run nothing.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startE2E } from '../support/browser';
import { DESKTOP, lastTurn, openChat, poll, screenshot, script, send, waitForAnswer } from './app-support';

let e2e: Awaited<ReturnType<typeof startE2E>>;
let context: BrowserContext;
let page: Page;
beforeAll(async () => {
  e2e = await startE2E();
  context = await e2e.browser.newContext({ viewport: DESKTOP });
  page = await openChat(context, e2e.app.origin);
});
afterAll(() => e2e?.close());

const HOSTILE = '<img src=x onerror="window.__pwned=1">notes.txt';

test('attach a file, ask about it, see the answer cite it as a file chip; the Files view lists it; deleting the chat deletes it', async () => {
  await page.locator('[data-testid="attach-input"]').setInputFiles({ name: HOSTILE, mimeType: 'text/plain', buffer: Buffer.from('Octopuses have three hearts and blue blood.') });
  const chip = page.locator('li.chat-file');
  await chip.and(page.locator('[data-file-status="completed"]')).waitFor({ timeout: 30_000 });
  expect(await chip.locator('.chat-file-name').innerText()).toBe(HOSTILE);

  await send(page, script(['<tool_call>{"name":"file_search","arguments":{"queries":["octopus hearts"]}}</tool_call>', 'Octopuses have three hearts [1].']));
  await waitForAnswer(page);
  const answer = lastTurn(page).locator('.answer');
  await poll(() => answer.locator('.markdown').innerText()).toContain('Octopuses have three hearts.');
  expect(await answer.locator('.search-card').innerText()).toContain('Searched your files');
  expect(await answer.locator('.file-chip').innerText()).toBe(HOSTILE);
  await screenshot(page, 'app-files-cited');

  // Settings: the Files view and the storage totals.
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const row = dialog.locator('.files-table tbody tr').first();
  await poll(() => row.locator('th').innerText()).toBe(HOSTILE);
  expect(await row.locator('td').nth(1).innerText()).toBe('Ready');
  await poll(() => dialog.locator('[data-storage-files]').innerText()).toMatch(/^Files: 1 /);
  await page.keyboard.press('Escape');

  // Nothing of the name ran or loaded, anywhere.
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned ?? null)).toBeNull();
  expect(await page.locator('img[src="x"], [onerror]').count()).toBe(0);

  const ids = await page.evaluate(async () => ({ files: (await window.sdk!.files.list()).data.length, stores: (await window.sdk!.vectorStores.list()).data.length }));
  expect(ids).toEqual({ files: 1, stores: 1 });
  const conversation = page.locator('li.conversation').first();
  const title = await conversation.locator('.conversation-title').innerText();
  await conversation.getByRole('button', { name: `Delete ${title}` }).click();
  await page.getByRole('group', { name: `Delete ${title}?` }).getByRole('button', { name: 'Delete' }).click();
  await poll(() => page.evaluate(async () => ({ files: (await window.sdk!.files.list()).data.length, stores: (await window.sdk!.vectorStores.list()).data.length }))).toEqual({ files: 0, stores: 0 });
});

test('files dropped on the chat are attached; one that cannot be read says why on its chip, and the chat still answers', async () => {
  await page.getByRole('button', { name: 'New chat' }).click().catch(() => undefined);
  const dropped = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['Kites fly in spring wind.'], 'kites.txt', { type: 'text/plain' }));
    transfer.items.add(new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'photo.png', { type: 'image/png' }));
    return transfer;
  });
  await page.dispatchEvent('main.chat', 'dragover', { dataTransfer: dropped });
  await page.dispatchEvent('main.chat', 'drop', { dataTransfer: dropped });
  await page.locator('li.chat-file[data-file-status="completed"]', { hasText: 'kites.txt' }).waitFor({ timeout: 30_000 });
  const chip = page.locator('li.chat-file[data-file-status="failed"]');
  await chip.waitFor({ timeout: 30_000 });
  expect(await chip.locator('.chat-file-error').innerText()).toMatch(/cannot read/);
  await send(page, 'hello');
  await waitForAnswer(page);
  expect(await lastTurn(page).locator('.answer .markdown').innerText()).toBe('You said: hello');
});
