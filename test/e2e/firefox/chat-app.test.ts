/**
 * The chat app in Firefox, used as a person would: what the app says about what Firefox
 * cannot do (WebGPU on Linux, installing on a computer), choosing the model, sending and
 * reading the answer, a Python call from the chat, the chat again after a reload, and the
 * app reloaded with its server gone (offline, from the service worker's precache).
 * One profile for the file: the tests run in order and build on each other.
 * What Firefox cannot do here (run a GPU model, install the app on a computer) has no test
 * of its own: the tests check what the app says about it instead.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HAVE_FIREFOX, NO_FIREFOX, pageErrors, startFirefoxE2E, waitForRuntimeInFirefox } from '../../support/firefox';
import { chooseModel, LAST_TURN, lastAnswerText, script, send, textOf, waitForAnswer, waitForText } from './firefox-chat';

describe.skipIf(!HAVE_FIREFOX)(HAVE_FIREFOX ? 'Firefox: the chat app' : `skipped: ${NO_FIREFOX}`, () => {
  let e2e: Awaited<ReturnType<typeof startFirefoxE2E>>;
  let page: Page;
  let errors: string[];
  let serverClosed = false;
  beforeAll(async () => {
    e2e = await startFirefoxE2E();
    page = await e2e.browser.newPage();
    errors = pageErrors(page);
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(`${e2e.app.origin}/?test-models`);
    await waitForRuntimeInFirefox(page);
  });
  afterAll(async () => {
    await e2e?.browser.close();
    if (!serverClosed) await e2e?.app.close();
  });

  test('no WebGPU: the first screen says so, that the CPU models work here, and why', async () => {
    await page.waitForSelector('[role="note"][aria-label="WebGPU not available"]');
    const notice = await textOf(page, '[role="note"][aria-label="WebGPU not available"]');
    expect(notice).toContain('This browser can’t run models on the GPU (no WebGPU).');
    expect(notice).toMatch(/The CPU models still work here, more slowly \(on \d+ threads\)\./);
    const why = await page.evaluate(() => {
      const details = document.querySelector('[aria-label="WebGPU not available"] details') as HTMLDetailsElement;
      details.open = true;
      return details.innerText;
    });
    if (process.platform === 'linux') expect(why).toContain('Firefox on Linux does not provide WebGPU yet');
  });

  test('the models dialog lists the GPU models as needing a GPU, and the scripted model is chosen there', async () => {
    await page.click('button.model-button');
    await page.waitForSelector('dialog[open] li.model', { visible: true });
    const gpuModel = await page.evaluate(() => {
      const row = [...document.querySelectorAll('dialog[open] li.model')].find((li) => li.textContent?.includes('needs a GPU')) as HTMLElement | undefined;
      return row ? { tag: true, useDisabled: (row.querySelector('.model-actions button.primary') as HTMLButtonElement | null)?.disabled ?? null } : null;
    });
    expect(gpuModel).toEqual({ tag: true, useDisabled: true });
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog[open]', { hidden: true });
    await chooseModel(page);
  });

  test('send: "hello from firefox" is answered in the chat, and the chat is in the sidebar', async () => {
    await send(page, 'hello from firefox');
    await waitForAnswer(page);
    expect(await lastAnswerText(page)).toBe('You said: hello from firefox');
    expect(await textOf(page, `${LAST_TURN} .user-text`)).toBe('hello from firefox');
    await waitForText(page, 'li.conversation .conversation-title', 'hello from firefox');
  });

  test('a streamed answer shows while it streams, then in full with its token counts', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    await send(page, script(long, { delay_ms: 25 }));
    await page.waitForSelector(`${LAST_TURN} .answer[aria-busy="true"]`);
    await waitForAnswer(page);
    expect(await lastAnswerText(page)).toBe(long);
    expect(await textOf(page, `${LAST_TURN} [aria-label="Token usage"]`)).toMatch(/\d+ in\s.*\d+ out/s);
  });

  test('Python from the chat: the code interpreter runs in the sandbox and its card shows the output', async () => {
    await page.click('button[aria-label="Settings"]');
    await page.waitForSelector('dialog[open] .settings-form', { visible: true });
    await page.evaluate(() => {
      const label = [...document.querySelectorAll('dialog[open] label.check')].find((l) => l.textContent?.includes('Code interpreter')) as HTMLLabelElement;
      if (!(label.querySelector('input') as HTMLInputElement).checked) label.click();
    });
    // Installing: where Firefox cannot, Settings says so and what to do instead.
    expect(await textOf(page, 'dialog[open] .install-advice')).toMatch(/^Firefox does not install web apps on a computer\. .*Chrome or Edge/);
    await page.click('button[aria-label="Close Settings"]');
    await page.waitForSelector('dialog[open]', { hidden: true });

    const call = '<tool_call>{"name":"python","arguments":{"code":"print(6*7)"}}</tool_call>';
    await send(page, script([call, 'The answer is **42**.']));
    await waitForAnswer(page, 'completed', 60_000);
    const card = `${LAST_TURN} section[aria-label="Code interpreter call"]`;
    expect(await textOf(page, `${card} code`)).toBe('print(6*7)');
    expect(await textOf(page, `${card} pre[aria-label="Output"]`)).toBe('42\n');
    expect(await textOf(page, `${card} .tool-status`)).toBe('Ran');
    expect(await lastAnswerText(page)).toBe('The answer is 42.');
  });

  test('reload: the chat is in the sidebar and opens with its turns', async () => {
    await page.reload();
    await waitForRuntimeInFirefox(page);
    await waitForText(page, 'li.conversation .conversation-title', 'hello from firefox');
    await page.click('li.conversation .conversation-open');
    await page.waitForFunction(() => document.querySelectorAll('li.turn').length === 3);
    expect(await textOf(page, 'li.turn:first-child .user-text')).toBe('hello from firefox');
    expect(await textOf(page, 'li.turn:first-child .answer .markdown')).toBe('You said: hello from firefox');
    expect(await lastAnswerText(page)).toBe('The answer is 42.');
  });

  test('offline: with the server gone, a reload opens the app from the precache, lists the chat and answers', async () => {
    // The deferred files (Python, the CPU engine, …) are fetched once this page's runtime has
    // given its first answer (src/client/offline-files.ts); wait for all of them.
    await send(page, 'Hello before going offline');
    await waitForAnswer(page);
    await page.waitForFunction(() => window.localRuntime!.offlineFiles.current()?.state === 'done', { timeout: 90_000, polling: 250 }).catch(async (error: unknown) => {
      throw new Error(`offline files not done: ${await page.evaluate(() => JSON.stringify(window.localRuntime!.offlineFiles.current()))}: ${String(error)}`);
    });
    await e2e.app.close();
    serverClosed = true;
    // And the browser offline too, where WebDriver BiDi can say so.
    const offline = await page.setOfflineMode(true).then(
      () => true,
      (error: unknown) => (console.warn(`[firefox e2e] offline emulation unavailable, the server is gone all the same: ${String(error)}`), false),
    );
    await page.reload();
    await waitForRuntimeInFirefox(page);
    if (offline) expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await waitForText(page, 'li.conversation .conversation-title', 'hello from firefox');
    await page.click('li.conversation .conversation-open');
    await page.waitForFunction(() => document.querySelectorAll('li.turn').length === 4);
    await send(page, 'Still here offline?');
    await waitForAnswer(page);
    expect(await lastAnswerText(page)).toBe('You said: Still here offline?');
    // Python too, from the precache: a new call in the same chat.
    const call = '<tool_call>{"name":"python","arguments":{"code":"print(2**10)"}}</tool_call>';
    await send(page, script([call, 'Done.']));
    await waitForAnswer(page, 'completed', 60_000);
    expect(await textOf(page, `${LAST_TURN} section[aria-label="Code interpreter call"] pre[aria-label="Output"]`)).toBe('1024\n');
    if (offline) expect(await textOf(page, '.runtime-badge')).toContain('Offline');
    expect(errors).toEqual([]);
  }, 150_000);
});
