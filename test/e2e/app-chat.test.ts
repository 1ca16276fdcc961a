/**
 * The chat app in Chromium with the scripted test model: streaming Markdown, Stop (a
 * cancelled background response), continuing in the chat's conversation, edit and
 * regenerate, reasoning and a Python tool call, the chat continued from code by its
 * conversation id (the real openai SDK in the page) and shown after a reload, the sidebar
 * (conversations) across a reload, rename and delete (the stored responses too), the "Use
 * from your code" check, and screenshots of each screen (with `UPDATE_SCREENSHOTS=1`, also the
 * README's `docs/images/chat.png`).
 * One browser profile for the file: the tests run in order and build on each other.
 */
import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startE2E, waitForRuntime } from '../support/browser';
import { serveFixtureWeb } from '../support/fixture-web';
import { DESKTOP, docsScreenshot, lastTurn, openChat, PHONE, poll, screenshot, script, send, settingsSaved, waitForAnswer } from './app-support';

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

/** The stored response's status as the server has it (404 → 'deleted'). */
function storedStatus(id: string): Promise<string> {
  return page.evaluate(async (responseId) => {
    const r = await fetch(`/v1/responses/${responseId}`);
    return r.status === 404 ? 'deleted' : ((await r.json()) as { status: string }).status;
  }, id);
}

async function responseIdOfLastAnswer(): Promise<string> {
  const id = await lastTurn(page).locator('.answer').getAttribute('data-response-id');
  expect(id).toMatch(/^resp_/);
  return id!;
}

test('send: the answer streams in as sanitized Markdown with highlighted code, token counts and speed', async () => {
  const output = 'Hello **bold** and `inline`.\n\n```python\nprint("hi")\n```\n\n<img src="x" onerror="window.__xss = 1"><script>window.__xss = 2</script>Done.';
  await send(page, script(output, { delay_ms: 25 }));
  const answer = lastTurn(page).locator('.answer');
  // While it streams: Stop replaces Send and the answer is busy.
  await poll(() => answer.getAttribute('aria-busy')).toBe('true');
  await page.getByRole('button', { name: 'Stop answer' }).waitFor();
  await poll(async () => (await answer.locator('.markdown').innerText()).length).toBeGreaterThan(0);
  const partial = await answer.locator('.markdown').innerText();
  await waitForAnswer(page);
  const final = await answer.locator('.markdown').innerText();
  expect(final.length).toBeGreaterThan(partial.length);
  expect(final).toContain('Hello bold and inline.');

  // Markdown → HTML, code highlighted, the model's HTML sanitized.
  expect(await answer.locator('.markdown strong').innerText()).toBe('bold');
  expect(await answer.locator('.markdown pre.code-block .hljs-built_in').first().innerText()).toBe('print');
  expect(await answer.locator('[onerror], script').count()).toBe(0);
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

  // Token counts and tokens/s under the answer.
  const meta = await answer.getByLabel('Token usage').innerText();
  expect(meta).toMatch(/\d+ in/);
  expect(meta).toMatch(/\d+ out/);
  expect(meta).toMatch(/[\d.]+ tok\/s/);
  // Focus stayed in the composer; the conversation is in the sidebar under its first message.
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('composer-input');
  expect(await page.getByRole('button', { name: 'Send message' }).isVisible()).toBe(true);
  await poll(() => page.locator('.conversation-title').first().innerText()).toContain('{"script":"Hello **bold**');
});

test('stop mid-answer: the response is cancelled and keeps the text so far', async () => {
  const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
  await send(page, script(long, { delay_ms: 30 }));
  const answer = lastTurn(page).locator('.answer');
  await poll(async () => (await answer.locator('.markdown').innerText()).length, { timeout: 10_000 }).toBeGreaterThan(20);
  await page.getByRole('button', { name: 'Stop answer' }).click();
  await waitForAnswer(page, 'cancelled');
  expect(await answer.locator('[data-note="cancelled"]').innerText()).toBe('Stopped.');
  const text = await answer.locator('.markdown').innerText();
  expect(text.length).toBeGreaterThan(0);
  expect(text.length).toBeLessThan(long.length);
  expect(await storedStatus(await responseIdOfLastAnswer())).toBe('cancelled');
  // Stopped within a few tokens: nothing more arrives.
  await page.waitForTimeout(300);
  expect(await answer.locator('.markdown').innerText()).toBe(text);
  await screenshot(page, 'desktop-chat-stopped');
});

/** The open chat's conversation id, from the sidebar's server list (the chat is its only conversation here). */
async function openConversationId(): Promise<string> {
  const list = await page.evaluate(async () => (await (await fetch('/v1/local/conversations')).json()) as { data: Array<{ id: string; metadata: { title?: string } }> });
  expect(list.data).toHaveLength(1);
  return list.data[0]!.id;
}

test('continue: the next message is a turn of the chat\'s conversation, which holds the turns that stood', async () => {
  const first = await page.locator('li.turn').first().locator('.answer').getAttribute('data-response-id');
  await send(page, 'And then?');
  await waitForAnswer(page);
  expect(await lastTurn(page).locator('.markdown').innerText()).toBe('You said: And then?');
  const id = await responseIdOfLastAnswer();
  const conversation = await openConversationId();
  expect(conversation).toMatch(/^conv_/);
  const stored = await page.evaluate(async (rid) => (await (await fetch(`/v1/responses/${rid}`)).json()) as { previous_response_id: string | null; conversation: { id: string } }, id);
  expect(stored).toMatchObject({ previous_response_id: null, conversation: { id: conversation } });
  const firstStored = await page.evaluate(async (rid) => (await (await fetch(`/v1/responses/${rid}`)).json()) as { conversation: { id: string } }, first);
  expect(firstStored.conversation.id).toBe(conversation);
  // The stopped answer never joined the conversation: the model sees the first turn and this one.
  const items = await page.evaluate(async (cid) => (await window.sdk!.conversations.items.list(cid, { order: 'asc' })).data.map((i) => i.type === 'message' ? i.role : i.type), conversation);
  expect(items).toEqual(['user', 'assistant', 'user', 'assistant']);
});

test('edit and resend the last message, then regenerate: each replaces the answer and deletes the old response', async () => {
  const original = await responseIdOfLastAnswer();
  await lastTurn(page).getByRole('button', { name: 'Edit message' }).click();
  const editor = lastTurn(page).getByLabel('Edit your message');
  await editor.fill('And after that?');
  await editor.press('Enter');
  await poll(() => lastTurn(page).locator('.answer').getAttribute('data-response-id')).not.toBe(original);
  await waitForAnswer(page);
  expect(await lastTurn(page).locator('.markdown').innerText()).toBe('You said: And after that?');
  expect(await lastTurn(page).locator('.user-text').innerText()).toBe('And after that?');
  const edited = await responseIdOfLastAnswer();
  await poll(() => storedStatus(original)).toBe('deleted');

  await lastTurn(page).getByRole('button', { name: 'Regenerate answer' }).click();
  await poll(() => lastTurn(page).locator('.answer').getAttribute('data-response-id')).not.toBe(edited);
  await waitForAnswer(page);
  expect(await lastTurn(page).locator('.markdown').innerText()).toBe('You said: And after that?');
  await poll(() => storedStatus(edited)).toBe('deleted');
  expect(await page.locator('li.turn').count()).toBe(3);
});

test('reasoning is collapsed under the answer; a scripted python call renders as a code card with its output', async () => {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('Code interpreter (Python, runs in a sandbox in this browser)').check();
  await screenshot(page, 'desktop-settings');
  await page.getByRole('button', { name: 'Close Settings' }).click();

  const call = '<tool_call>{"name":"python","arguments":{"code":"print(6*7)"}}</tool_call>';
  await send(page, script(['<think>I should compute 6*7 with Python.</think>' + call, 'The answer is **42**.'], { delay_ms: 10 }));
  const answer = lastTurn(page).locator('.answer');
  // While the model thinks, the reasoning shows collapsed, labelled as thinking.
  const reasoning = answer.locator('details.reasoning');
  await reasoning.waitFor();
  await poll(() => lastTurn(page).getAttribute('data-turn-status'), { timeout: 60_000 }).toMatch(/completed|failed/);
  const status = await lastTurn(page).getAttribute('data-turn-status');
  expect(await reasoning.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
  expect(await reasoning.locator('summary').innerText()).toMatch(/^Reasoning \(\d+ words\)$/);
  await reasoning.locator('summary').click();
  expect(await reasoning.locator('.reasoning-text').innerText()).toBe('I should compute 6*7 with Python.');

  if (status === 'failed') {
    // A runtime without the code interpreter rejects the tool: the app says so.
    expect(await answer.getByRole('alert').innerText()).toContain('code_interpreter');
    return;
  }
  const card = answer.getByRole('region', { name: 'Code interpreter call' });
  expect(await card.locator('code').first().innerText()).toBe('print(6*7)');
  expect(await card.getByLabel('Output').innerText()).toBe('42\n');
  expect(await card.locator('.tool-status').innerText()).toBe('Ran');
  expect(await answer.locator('.markdown').last().innerText()).toBe('The answer is 42.');
  await screenshot(page, 'desktop-chat-tools');
  await docsScreenshot(page, 'chat');
});

test('"Use from your code": the snippet targets this origin and the live check runs it', async () => {
  await page.getByRole('button', { name: 'Use from your code' }).click();
  const dialog = page.getByRole('dialog', { name: 'Use from your code' });
  expect(await dialog.locator('pre').first().innerText()).toContain("baseURL: location.origin + '/v1'");
  expect(await dialog.locator('pre').first().innerText()).toContain("model: 'test-scripted'");
  // With a chat open: how to continue it from code by its conversation id.
  expect(await dialog.locator('pre').first().innerText()).toContain(`conversation: '${await openConversationId()}'`);
  await dialog.getByRole('button', { name: 'Run it here' }).click();
  const steps = dialog.getByRole('list', { name: 'Live check' }).locator('li');
  await poll(() => steps.evaluateAll((items) => items.map((li) => li.getAttribute('data-state'))), { timeout: 20_000 }).toEqual(['ok', 'ok', 'ok']);
  expect(await steps.nth(1).innerText()).toContain('You said: Say hello in five words.');
  // The same turn over the in-page WebSocket (WebSocket mode).
  expect(await steps.nth(2).innerText()).toContain('You said: Say hello in five words.');
  expect(await dialog.locator('pre').first().innerText()).toContain("new WebSocket(location.origin.replace(/^http/, 'ws') + '/v1/responses')");
  await screenshot(page, 'desktop-code-panel');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
});

test('from code: the chat is continued by its conversation id with the openai SDK in the page, and the app shows it after a reload', async () => {
  const conversation = await openConversationId();
  const fromCode = await page.evaluate(
    async (id) => (await window.sdk!.responses.create({ model: 'test-scripted', conversation: id, input: 'Continued from code' })).output_text,
    conversation,
  );
  expect(fromCode).toBe('You said: Continued from code');
  await page.reload();
  await waitForRuntime(page);
  const row = page.locator('li.conversation').first();
  await row.locator('.conversation-open').click();
  await poll(() => lastTurn(page).locator('.markdown').last().innerText()).toBe('You said: Continued from code');
  expect(await lastTurn(page).locator('.user-text').innerText()).toBe('Continued from code');
});

test('reload: the conversation is in the sidebar and opens from its items; rename and delete go through the conversation', async () => {
  const conversation = await openConversationId();
  const ids = (await page.evaluate(async () => ((await (await fetch('/v1/local/responses?limit=100')).json()) as { data: Array<{ id: string; conversation_id: string | null }> }).data))
    .filter((s) => s.conversation_id === conversation)
    .map((s) => s.id);
  // Sent, stopped, continued, edited + regenerated (the replaced ones deleted), python, from code.
  expect(ids.length).toBeGreaterThanOrEqual(5);
  await page.reload();
  await waitForRuntime(page);
  const row = page.locator('li.conversation').first();
  const title = await row.locator('.conversation-title').innerText();
  expect(title).toContain('{"script":"Hello **bold**');
  // A reload opens a new chat; the old one is one click away.
  expect(await page.locator('li.turn').count()).toBe(0);
  await row.locator('.conversation-open').click();
  // The turns that stood: the first answer, the edited one, python, the one from code (the stopped answer never joined).
  await poll(() => page.locator('li.turn').count()).toBe(4);
  expect(await page.locator('li.turn .user-text').first().innerText()).toContain('{"script":"Hello **bold**');
  expect(await page.locator('li.turn').nth(1).locator('.markdown').innerText()).toBe('You said: And after that?');
  expect(await page.locator('li.turn').nth(2).locator('.code-card code').first().innerText().catch(() => 'no card')).toMatch(/print\(6\*7\)|no card/);
  await screenshot(page, 'desktop-chat');

  // Export as JSON: the turns as the conversation holds them.
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: `Export ${title} as JSON` }).click()]);
  expect(download.suggestedFilename()).toMatch(/^script-hello-bold.*\.json$/);
  const exported = JSON.parse(await readFile((await download.path())!, 'utf8')) as { id: string; title: string; turns: Array<{ input: string }> };
  expect(exported).toMatchObject({ id: conversation, title });
  expect(exported.turns.at(-1)!.input).toBe('Continued from code');

  // Rename (the conversation's metadata), then delete (confirming inline).
  await row.getByRole('button', { name: `Rename ${title}` }).click();
  const input = page.getByLabel('Conversation title');
  await input.fill('Arithmetic');
  await input.press('Enter');
  await poll(() => row.locator('.conversation-title').innerText()).toBe('Arithmetic');
  await poll(() => page.evaluate(async (id) => (await window.sdk!.conversations.retrieve(id)).metadata, conversation)).toEqual({ title: 'Arithmetic' });
  await row.getByRole('button', { name: 'Delete Arithmetic' }).click();
  await page.getByRole('group', { name: 'Delete Arithmetic?' }).getByRole('button', { name: 'Delete' }).click();
  await poll(() => page.locator('li.conversation').count()).toBe(0);
  await poll(() => page.evaluate(async (id) => (await fetch(`/v1/conversations/${id}`)).status, conversation)).toBe(404);
  for (const id of ids) await poll(() => storedStatus(id)).toBe('deleted');
  // Gone from the server's list too: a reload shows no conversation.
  await page.reload();
  await waitForRuntime(page);
  await page.getByText('No conversations yet.').waitFor();
});

test('an answer that tries to load URLs (images, srcset, media, CSS, table backgrounds) loads nothing; external images are links', async () => {
  // Another origin that records every request: the leak would show up here.
  const web = await serveFixtureWeb();
  try {
    const at = (name: string) => `${web.origin}/leak/${name}?q=secret`;
    const output = [
      `Here is the chart: ![chart](${at('md-image')})`,
      `<img src="${at('img')}" alt="raw">`,
      `<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" srcset="${at('srcset')} 2x">`,
      `<picture><source srcset="${at('picture')}"><img src="${at('picture-img')}"></picture>`,
      `<video src="${at('video')}" poster="${at('poster')}" autoplay></video><audio src="${at('audio')}" autoplay></audio>`,
      `<p style="background:url(${at('style')})">styled</p><style>p{background:url(${at('sheet')})}</style>`,
      `<table background="${at('table')}"><tr><td background="${at('td')}">cell</td></tr></table>`,
      `<svg><image href="${at('svg')}"/></svg><link rel="stylesheet" href="${at('link')}"><input type="image" src="${at('input')}">`,
    ].join('\n\n');
    await send(page, script(output, { delay_ms: 2, chunk: 7 }));
    await waitForAnswer(page);
    // Let anything that was going to load have its chance: images done (loaded or failed),
    // then a moment for media and styles.
    await page.waitForFunction(() => Array.from(document.querySelectorAll<HTMLImageElement>('.answer img')).every((img) => img.complete));
    await page.waitForTimeout(1000);
    expect(web.requests).toEqual([]);
    const answer = lastTurn(page).locator('.answer .markdown');
    const link = answer.locator('a.image-link').first();
    expect(await link.innerText()).toContain(`chart — Open image from ${new URL(web.origin).host}`);
    expect(await link.getAttribute('href')).toBe(at('md-image'));
    expect(await answer.locator('img').count()).toBe(1); // the data: one

    // Reopened from the conversation's items after a reload, with a title any code of the
    // origin may have set: still nothing loads, and the title is text.
    await page.evaluate(async (src) => {
      await window.sdk!.conversations.create({ metadata: { title: `<img src="${src}"> hostile title` } });
    }, at('title'));
    await page.reload();
    await waitForRuntime(page);
    await page.locator('li.conversation', { hasText: 'hostile title' }).waitFor();
    expect(await page.locator('li.conversation img').count()).toBe(0);
    await page.locator('li.conversation', { hasNotText: 'hostile title' }).first().locator('.conversation-open').click();
    await lastTurn(page).locator('.answer .markdown a.image-link').first().waitFor();
    await page.waitForFunction(() => Array.from(document.querySelectorAll<HTMLImageElement>('.answer img')).every((img) => img.complete));
    await page.waitForTimeout(1000);
    expect(web.requests).toEqual([]);
    expect(await lastTurn(page).locator('.answer .markdown img').count()).toBe(1);
  } finally {
    await web.close();
  }
});

test('web search: the searched query with its sources, the opened page and the find-in-page are cards; the answer cites its source', async () => {
  const web = await serveFixtureWeb();
  const searching = await e2e.browser.newContext({ viewport: DESKTOP });
  try {
    // As a person would: the fixture web's SearXNG as provider in the settings (its
    // loopback host is then allowed), which applies from the next reload.
    const tab = await openChat(searching, e2e.app.origin);
    await tab.getByRole('button', { name: 'Settings' }).click();
    await tab.getByLabel('Web search', { exact: true }).check();
    await tab.getByLabel('Search provider (SearXNG address)').fill(web.origin);
    await tab.keyboard.press('Escape');
    await settingsSaved(tab, { webSearch: true, webSearchProviderUrl: web.origin });
    await tab.reload();
    await waitForRuntime(tab);
    const url = `${web.origin}/pages/paris.html`;
    const call = (name: string, args: object) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
    await send(
      tab,
      script([call('search', { query: 'paris population' }), call('open_page', { url }), call('find_in_page', { url, pattern: 'population' }), `Paris has about 2.1 million residents (${url}).`]),
    );
    await waitForAnswer(tab);
    const answer = lastTurn(tab).locator('.answer');
    const cards = answer.getByRole('region', { name: 'Web search call' });
    expect(await cards.count()).toBe(3);
    const [search, open, find] = [await cards.nth(0).innerText(), await cards.nth(1).innerText(), await cards.nth(2).innerText()];
    expect(search).toContain('Web search');
    expect(search).toContain('“paris population”');
    expect(await cards.nth(0).locator('.source-list a').first().getAttribute('href')).toBe(url);
    expect(open).toContain('Opened page');
    expect(open).toContain(url);
    expect(find).toContain('Searched in page');
    expect(find).toContain('“population”');
    const sources = answer.getByRole('navigation', { name: 'Sources' });
    expect(await sources.locator('a').getAttribute('href')).toBe(url);
    expect(await sources.innerText()).toContain('Paris');
    await screenshot(tab, 'desktop-chat-web-search');
  } finally {
    await searching.close();
    await web.close();
  }
});

test('phone width: the sidebar is a drawer behind the menu button; the chat fits the screen', async () => {
  const phone = await e2e.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const small = await openChat(phone, e2e.app.origin);
  await send(small, script('Sure — here is a **short** answer with a list:\n\n- one\n- two\n\n```js\nconsole.log(1)\n```'));
  await waitForAnswer(small);
  await send(small, script('<think>Short thought.</think>Second answer.'));
  await waitForAnswer(small);
  // Nothing wider than the screen.
  expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  expect(await small.locator('#sidebar').isVisible()).toBe(false);
  await screenshot(small, 'phone-chat');
  const menu = small.getByRole('button', { name: 'Conversations', exact: true });
  await menu.click();
  expect(await menu.getAttribute('aria-expanded')).toBe('true');
  await small.locator('#sidebar').waitFor({ state: 'visible' });
  await screenshot(small, 'phone-sidebar');
  // Escape closes the drawer and gives the focus back to the menu button.
  await small.keyboard.press('Escape');
  await small.locator('#sidebar').waitFor({ state: 'hidden' });
  expect(await small.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Conversations');
  await menu.click();
  await small.locator('li.conversation .conversation-open').first().click();
  await small.locator('#sidebar').waitFor({ state: 'hidden' });
  await small.getByRole('button', { name: 'test scripted' }).click();
  await small.getByRole('dialog', { name: 'Models' }).waitFor();
  await screenshot(small, 'phone-models');
  await phone.close();
});
