/**
 * A newcomer's first minutes (issue 15): the chosen model's download as a progress card on
 * the main screen (percent, Cancel; the same card when a message waits for the model), a
 * failed download as a plain sentence with Retry and the details folded away, and the main
 * screens checked by axe-core at desktop and phone width. Against the production build and a
 * same-origin mirror of generated files (test/fixtures/webllm-mirror.ts): its model library is
 * a placeholder, so a download from it ends in a "damaged file" failure.
 */
import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { writeWebLlmMirror } from '../fixtures/webllm-mirror';
import { serveDistWithMirror, type ServedWithMirror } from '../fixtures/webllm-mirror-server';
import { CHROMIUM_ARGS, configureRuntime } from '../support/browser';
import { DESKTOP, PHONE, openChat, screenshot, script, send, waitForAnswer, holdMirrorDownloads } from './app-support';

const QWEN = 'Qwen3-0.6B-q4f16_1-MLC';
const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

let dir: string;
let app: ServedWithMirror;
/** Without WebGPU (as on this machine by default). */
let plain: Browser;
/** With SwiftShader WebGPU: GPU model downloads are allowed. */
let gpu: Browser;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'app-newcomer-'));
  await writeWebLlmMirror(join(dir, 'qwen'), { variantId: 'Qwen3-0.6B-q4f32_1-MLC' });
  const launch = (args: string[]) => chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...args] });
  [app, plain, gpu] = await Promise.all([serveDistWithMirror(dir), launch([]), launch(['--enable-unsafe-webgpu'])]);
});

afterAll(async () => {
  await Promise.all([plain?.close(), gpu?.close(), app?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface AxeResult {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** Rules named by the issue, checked whatever their impact (axe calls some of them moderate). */
const NAMED_RULES = ['page-has-heading-one', 'landmark-no-duplicate-banner', 'landmark-no-duplicate-main', 'landmark-unique', 'scrollable-region-focusable', 'button-name', 'color-contrast'];

/** axe-core's violations on the page as it is: serious or critical ones, and any of the named rules. */
async function axeProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: unknown): Promise<{ violations: AxeResult[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || NAMED_RULES.includes(v.id))
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

test('axe finds nothing serious on the first visit, a chat with a code block and the model picker, at desktop and phone width', async () => {
  // bypassCSP: axe is injected as an inline script, which the app's CSP rightly refuses.
  const context = await plain.newContext({ viewport: DESKTOP, bypassCSP: true });
  const first = await context.newPage();
  await first.goto(`${app.origin}/`);
  await first.locator('[data-runtime-state="ready"]').waitFor({ timeout: 30_000 });
  await first.getByLabel('Suggested model').waitFor();
  expect(await axeProblems(first)).toEqual([]);
  await first.setViewportSize(PHONE);
  expect(await axeProblems(first)).toEqual([]);
  await screenshot(first, 'newcomer-phone-first-visit');
  await first.close();

  const page = await openChat(context, app.origin);
  await send(page, script('Here:\n\n```python\nprint("a rather long line of code that scrolls sideways on a narrow screen, so it must take the keyboard focus")\n```\n'));
  await waitForAnswer(page);
  expect(await page.locator('.answer pre.code-block').getAttribute('tabindex')).toBe('0');
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    expect(await axeProblems(page), `chat at ${viewport.width}px`).toEqual([]);
  }
  await screenshot(page, 'newcomer-phone-chat');
  // Contrast holds in the dark theme too.
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await axeProblems(page), 'chat, dark theme').toEqual([]);
  await screenshot(page, 'newcomer-phone-chat-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(DESKTOP);
  await page.locator('button.model-button').click();
  const dialog = page.getByRole('dialog', { name: 'Models' });
  await dialog.getByRole('heading', { name: 'Needs a GPU' }).waitFor();
  // Without WebGPU a GPU model is marked and cannot be started; the CPU ones can.
  const qwen = dialog.locator(`li.model[data-model-id="${QWEN}"]`);
  expect(await qwen.innerText()).toContain('needs a GPU');
  expect(await qwen.getByRole('button', { name: 'Use Qwen3 0.6B', exact: true }).isDisabled()).toBe(true);
  const cpu = dialog.getByRole('region', { name: 'Runs on this device' }).locator('li.model').first();
  expect(await cpu.getByRole('button', { name: /^Use / }).isEnabled()).toBe(true);
  expect(await axeProblems(page)).toEqual([]);
  await screenshot(page, 'newcomer-desktop-models-no-gpu');
  await context.close();
});

test('small screens: the welcome screen opens at its top at 800×500, the top bar fits at 768 and 800 px, Install shows when the browser offers it', async () => {
  const context = await plain.newContext({ viewport: { width: 800, height: 500 } });
  const page = await context.newPage();
  await page.goto(`${app.origin}/`);
  await page.locator('[data-runtime-state="ready"]').waitFor({ timeout: 30_000 });
  await page.getByLabel('Suggested model').waitFor();
  const messages = page.locator('.messages');
  expect(await messages.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  expect(await messages.evaluate((el) => el.scrollTop)).toBe(0);
  await screenshot(page, 'newcomer-800x500-welcome');

  // What Chromium fires once the app is installable (a headless run never decides that itself).
  await page.evaluate(() => {
    const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: async () => {},
      userChoice: Promise.resolve({ outcome: 'dismissed' }),
    });
    window.dispatchEvent(event);
  });
  await page.getByRole('button', { name: 'Install app' }).waitFor();
  for (const width of [768, 800]) {
    await page.setViewportSize({ width, height: 600 });
    const overflow = await page.locator('.topbar').evaluate((bar) => {
      const right = bar.getBoundingClientRect().right;
      return { scroll: bar.scrollWidth - bar.clientWidth, past: Math.max(...Array.from(bar.querySelectorAll('button, p')).map((el) => el.getBoundingClientRect().right - right)) };
    });
    expect(overflow.scroll, `top bar at ${width}px`).toBeLessThanOrEqual(0);
    expect(overflow.past, `top bar at ${width}px`).toBeLessThanOrEqual(0);
  }
  await screenshot(page, 'newcomer-768-topbar');
  await page.getByRole('button', { name: 'Install app' }).click();
  await page.getByRole('button', { name: 'Install app' }).waitFor({ state: 'detached' });
  await context.close();
});

test('first visit: "Download and use it" becomes the progress card; huggingface.co out of reach reads as such, with Retry', async () => {
  const context = await plain.newContext({ viewport: PHONE });
  // No internet here: the weights' host is held, then the connection fails as offline would.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await context.route(/^https:\/\/huggingface\.co\//, async (route) => {
    await held;
    await route.abort('internetdisconnected');
  });
  const page = await context.newPage();
  await page.goto(`${app.origin}/`);
  const suggestion = page.getByLabel('Suggested model');
  await suggestion.getByRole('button', { name: 'Download and use it' }).click();
  const card = page.getByRole('region', { name: /^Downloading / });
  await card.waitFor();
  expect(await card.locator('.progress-text').innerText()).toMatch(/^Downloading · (0 B of [\d.]+ MB · )?0%/);
  expect(await suggestion.count()).toBe(0);
  await screenshot(page, 'newcomer-phone-first-download');
  release();
  const failed = page.getByRole('region', { name: / could not be loaded$/ });
  await failed.waitFor({ timeout: 30_000 });
  expect(await failed.getByRole('alert').locator('> p').innerText()).toBe('Couldn’t reach huggingface.co — check your connection, then Retry.');
  await failed.getByRole('button', { name: 'Retry' }).waitFor();
  await screenshot(page, 'newcomer-phone-first-download-failed');
  await context.close();
});

test('a download shows on the main screen with percent and Cancel, a waiting message shows the same card, and a failed one offers Retry', async () => {
  const context = await gpu.newContext({ viewport: DESKTOP });
  // Holds the model library back so the download stays in progress until the test lets it go.
  const release = await holdMirrorDownloads(context);
  await configureRuntime(context, app.origin, { modelBase: '/test-mirror/qwen/' });
  const page = await openChat(context, app.origin);
  await page.locator('button.model-button').click();
  const dialog = page.getByRole('dialog', { name: 'Models' });
  // "Use" on a model that is not downloaded starts its download.
  await dialog.getByRole('button', { name: 'Use Qwen3 0.6B', exact: true }).click();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });

  const card = page.getByRole('region', { name: 'Downloading Qwen3 0.6B' });
  await card.waitFor();
  expect(await card.locator('.progress-text').innerText()).toMatch(/^Downloading · (.+ of .+ · )?\d+%/);
  expect(await card.locator('progress').getAttribute('max')).toBe('1');
  await screenshot(page, 'newcomer-desktop-downloading');
  await card.getByRole('button', { name: 'Cancel the download of Qwen3 0.6B' }).click();
  await card.waitFor({ state: 'detached' });

  // A message to a model that is not here yet: the same card, and the message waits for it.
  await send(page, 'Hello there');
  await card.waitFor();
  expect(await card.innerText()).toContain('Your message is sent as soon as the model is ready.');
  await screenshot(page, 'newcomer-desktop-message-waits');

  release();
  const failed = page.getByRole('region', { name: 'Qwen3 0.6B could not be loaded' });
  await failed.waitFor({ timeout: 30_000 });
  const alert = failed.getByRole('alert');
  const summary = await alert.locator('> p').innerText();
  expect(summary).toMatch(/^A file of Qwen3 0\.6B from 127\.0\.0\.1:\d+ is damaged or not a model file\. Retry/);
  expect(summary).not.toContain('http');
  // The URL is in the details, folded away.
  const details = alert.locator('details');
  expect(await details.getAttribute('open')).toBeNull();
  expect(await details.locator('.failure-details').textContent()).toContain(`${app.mirrorUrl}qwen/`);
  await failed.getByRole('button', { name: 'Retry' }).waitFor();
  // The message that waited is back in the composer, not lost.
  expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('Hello there');
  await details.locator('summary').click();
  await screenshot(page, 'newcomer-desktop-download-failed');
  await context.close();
});

test('a model source that cannot be reached: "Couldn’t reach <host> — check your connection, then Retry"', async () => {
  const context = await gpu.newContext({ viewport: PHONE });
  // A port nothing listens on: the connection is refused, as an unreachable host's would fail.
  await configureRuntime(context, app.origin, { modelBase: 'http://127.0.0.1:9/models/' });
  const page = await openChat(context, app.origin);
  await page.locator('button.model-button').click();
  const dialog = page.getByRole('dialog', { name: 'Models' });
  await dialog.getByRole('button', { name: 'Use Qwen3 0.6B', exact: true }).click();
  const row = dialog.locator(`li.model[data-model-id="${QWEN}"]`);
  const alert = row.getByRole('alert');
  await alert.waitFor({ timeout: 30_000 });
  expect(await alert.locator('> p').innerText()).toBe('Couldn’t reach 127.0.0.1:9 — check your connection, then Retry.');
  await alert.getByRole('button', { name: 'Retry' }).waitFor();
  await screenshot(page, 'newcomer-phone-unreachable');
  await context.close();
});
