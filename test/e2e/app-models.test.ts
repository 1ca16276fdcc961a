/**
 * The model picker: the catalog from /v1/models with sizes, GPU memory, capabilities and
 * download state; the first-visit suggestion and the plain "no WebGPU" notice; and a
 * download with progress, cancel and a failure, against a same-origin mirror of generated
 * files (test/fixtures/webllm-mirror.ts) in Chromium with SwiftShader WebGPU. No compiled
 * model library exists offline, so a download from the mirror ends at the placeholder
 * library: the app shows that error, naming the file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { writeWebLlmMirror, type WebLlmMirror } from '../fixtures/webllm-mirror';
import { serveDistWithMirror, type ServedWithMirror } from '../fixtures/webllm-mirror-server';
import { CHROMIUM_ARGS, configureRuntime } from '../support/browser';
import { DESKTOP, openChat, poll, screenshot, holdMirrorDownloads } from './app-support';

const QWEN = 'Qwen3-0.6B-q4f16_1-MLC';

let dir: string;
let mirror: WebLlmMirror;
let app: ServedWithMirror;
/** Without WebGPU (as on this machine by default). */
let plain: Browser;
/** With SwiftShader WebGPU: downloads are allowed. */
let gpu: Browser;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'app-models-'));
  mirror = await writeWebLlmMirror(join(dir, 'qwen'), { variantId: 'Qwen3-0.6B-q4f32_1-MLC' });
  const launch = (args: string[]) => chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...args] });
  [app, plain, gpu] = await Promise.all([serveDistWithMirror(dir), launch([]), launch(['--enable-unsafe-webgpu'])]);
});

afterAll(async () => {
  await Promise.all([plain?.close(), gpu?.close(), app?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('first visit without WebGPU: says so plainly, suggests a model this device can run, and the picker shows the catalog', async () => {
  const context = await plain.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  // A production page: no test model anywhere.
  await page.goto(`${app.origin}/`);
  await page.locator('[data-runtime-state="ready"]').waitFor();
  const notice = page.getByRole('note', { name: 'WebGPU not available' });
  await notice.waitFor();
  expect(await notice.innerText()).toContain('can’t run models on the GPU');
  // The suggestion is a model for this device (the CPU engine here), with its size.
  const suggestion = page.getByLabel('Suggested model');
  await suggestion.waitFor();
  expect(await suggestion.innerText()).toMatch(/Suggested for this device: .+ — [\d.]+ [MG]B download/);
  expect(await page.getByRole('button', { name: 'Choose a model' }).isVisible()).toBe(true);
  await screenshot(page, 'desktop-first-visit');

  await page.getByRole('button', { name: 'Choose a model' }).click();
  const dialog = page.getByRole('dialog', { name: 'Models' });
  const qwen = dialog.locator(`li.model[data-model-id="${QWEN}"]`);
  await qwen.waitFor();
  const facts = await qwen.innerText();
  expect(facts).toContain('Qwen3 0.6B');
  expect(facts).toMatch(/[\d.]+ MB download/);
  expect(facts).toMatch(/[\d.]+ GB GPU memory|[\d.]+ MB GPU memory/);
  expect(facts).toContain('tools');
  expect(facts).toContain('reasoning');
  expect(facts).toContain('Not downloaded');
  expect(await dialog.locator('li.model[data-model-id="test-scripted"]').count()).toBe(0);
  expect(await dialog.getByLabel('Storage', { exact: true }).innerText()).toMatch(/Storage: .+ used of .+ available/);
  await screenshot(page, 'desktop-models');
  await context.close();
});

test('download from a same-origin mirror: progress, cancel, then a failure that names the file', async () => {
  const context = await gpu.newContext({ viewport: DESKTOP });
  // Holds the model library back so the download stays in progress long enough to cancel.
  const release = await holdMirrorDownloads(context);
  await configureRuntime(context, app.origin, { modelBase: '/test-mirror/qwen/' });
  const page = await openChat(context, app.origin);
  await page.getByRole('button', { name: 'test scripted' }).click();
  const dialog = page.getByRole('dialog', { name: 'Models' });
  const row = dialog.locator(`li.model[data-model-id="${QWEN}"]`);
  // Test builds list the hidden test model too, marked as such.
  expect(await dialog.locator('li.model[data-model-id="test-scripted"]').innerText()).toContain('test');
  expect(await dialog.getByRole('note', { name: 'WebGPU not available' }).count()).toBe(0);

  // One main action per row: "Use" on a model that is not downloaded chooses it and starts its download.
  await row.getByRole('button', { name: 'Use Qwen3 0.6B', exact: true }).click();
  const progress = row.locator('[data-download-progress]');
  await progress.waitFor();
  expect(await progress.locator('progress').getAttribute('max')).toBe('1');
  expect(await progress.locator('.progress-text').innerText()).toMatch(/^Downloading · \d+%/);
  await screenshot(page, 'desktop-models-downloading');
  await row.getByRole('button', { name: 'Cancel the download of Qwen3 0.6B' }).click();
  await progress.waitFor({ state: 'detached' });
  expect(await row.getByRole('alert').count()).toBe(0);
  await row.getByRole('button', { name: 'Download Qwen3 0.6B' }).waitFor();
  await poll(() => page.evaluate(async () => ((await (await fetch('/v1/local/status')).json()) as { loading: unknown }).loading)).toBeNull();

  release();
  await row.getByRole('button', { name: 'Download Qwen3 0.6B' }).click();
  const error = row.getByRole('alert');
  await error.waitFor({ timeout: 30_000 });
  // One plain sentence with Retry; the file's URL is in the folded details.
  expect(await error.locator('> p').innerText()).toMatch(/^A file of Qwen3 0\.6B from 127\.0\.0\.1:\d+ is damaged or not a model file\./);
  await error.getByRole('button', { name: 'Retry' }).waitFor();
  expect(await error.locator('.failure-details').textContent()).toContain(`corrupt or not a model file (${app.mirrorUrl}qwen/${mirror.paths.library})`);
  expect(await row.innerText()).toContain('Not downloaded');
  await context.close();
});
