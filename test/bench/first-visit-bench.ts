/**
 * `npm run bench:first-visit`: what a first visit costs on a 10 Mbit/s / 40 ms link (CDP
 * throttling on the page and its service worker, test/support/throttled-network.ts), in a
 * fresh profile each visit, by two paths to the first answer:
 *
 *   picker   the newcomer's path: open `/?test-models`, open "Choose a model", press "Use" on
 *            `test-scripted`, send "hi" in the composer, until the answer shows
 *   preset   a page whose model is already known: `/?test-models`, then the same question
 *            through the SDK (`window.sdk`) as soon as the runtime answers
 *
 * For each: the time from navigation to the answer and the network bytes until then, and the
 * same visit unthrottled, alternating with the throttled one (what the machine's CPU takes
 * of it; noisy on shared machines). After the picker visit:
 *
 *   offline  until the service worker reports every deferred file (Python, the CPU engine, …)
 *            kept offline, and the bytes of the whole visit
 *   repeat   a reload (still at 10 Mbit/s) with the model chosen: until the next answer shows
 *   offline reload   the same reload with the network off
 *
 * BENCH_BASELINE=/path/to/another/checkout (built with `vite build`, e.g. a `git worktree` of
 * main): its `dist/` is served too and measured the same way, round by round, alternating
 * with this one, so the two columns compare on the same machine state.
 *
 * Goal (issues 15 and 28): the first answer within 1 MB and 3 s, by either path. Prints
 * medians over BENCH_ROUNDS (default 3) and, per path, the downloads before the answer of the
 * last round (BENCH_VERBOSE=1: all of them, in order; else the biggest).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, test } from 'vitest';
import { serveDist, startE2E, type Served } from '../support/browser';
import { throttleNetwork, type ThrottledNetwork } from '../support/throttled-network';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const VERBOSE = process.env.BENCH_VERBOSE === '1';
const BASELINE = process.env.BENCH_BASELINE;
const LINK = { bitsPerSecond: 10_000_000, latencyMs: 40 };

let e2e: Awaited<ReturnType<typeof startE2E>>;
let baseline: Served | undefined;
beforeAll(async () => {
  e2e = await startE2E();
  if (BASELINE) baseline = await serveDist(BASELINE);
});
afterAll(async () => {
  await baseline?.close();
  await e2e?.close();
});

const median = (xs: number[]) => (xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[xs.length >> 1]!);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

type Path = 'picker' | 'preset';

/** Sends `text` in the composer and waits until its answer shows, complete. */
async function askInChat(page: Page, text: string): Promise<void> {
  const input = page.getByLabel('Message', { exact: true });
  await input.fill(text);
  // Enter sends once the runtime is ready (before, the composer keeps the draft).
  await page.locator('button.send-button:not([disabled])').waitFor({ timeout: 120_000 });
  await input.press('Enter');
  await page.waitForFunction(
    (expected) => {
      const turn = [...document.querySelectorAll('li.turn')].at(-1);
      return turn?.getAttribute('data-turn-status') === 'completed' && turn.querySelector('.answer')?.textContent?.includes(expected);
    },
    `You said: ${text}`,
    { timeout: 120_000, polling: 20 },
  );
}

/** The newcomer's way: the picker, "Use" on the test model, then a message in the composer. */
async function firstAnswerThroughPicker(page: Page): Promise<void> {
  await page.locator('button.model-button', { hasText: 'Choose a model' }).click({ timeout: 120_000 });
  const dialog = page.getByRole('dialog', { name: 'Models' });
  await dialog.locator('li.model[data-model-id="test-scripted"]').getByRole('button', { name: 'Use' }).click({ timeout: 120_000 });
  await page.keyboard.press('Escape');
  await askInChat(page, 'hi');
}

/** The preset way: straight to the SDK once the runtime answers. */
async function firstAnswerThroughSdk(page: Page): Promise<void> {
  await page.waitForFunction(() => window.sdk !== undefined, undefined, { timeout: 120_000, polling: 20 });
  const answer = await page.evaluate(async () => (await window.sdk!.responses.create({ model: 'test-scripted', input: 'hi' })).output_text);
  if (answer !== 'You said: hi') throw new Error(`unexpected answer ${answer}`);
}

interface Visit {
  context: BrowserContext;
  page: Page;
  net: ThrottledNetwork | null;
  ms: number;
  bytes: number;
  downloads: string[];
}

async function visit(origin: string, path: Path, throttled: boolean): Promise<Visit> {
  const context = await e2e.browser.newContext();
  const page = await context.newPage();
  const net = throttled ? await throttleNetwork(context, page, LINK) : null;
  const start = performance.now();
  await page.goto(`${origin}/?test-models`);
  await (path === 'picker' ? firstAnswerThroughPicker(page) : firstAnswerThroughSdk(page));
  const ms = performance.now() - start;
  const requests = [...(net?.requests ?? [])];
  const listed = VERBOSE ? requests : requests.sort((a, b) => b.bytes - a.bytes).slice(0, 6);
  const downloads = listed.map((r) => `${mb(r.bytes).padStart(9)}  ${(r.atMs / 1000).toFixed(2).padStart(6)} s  ${new URL(r.url).pathname}`);
  return { context, page, net, ms, bytes: net?.bytes() ?? 0, downloads };
}

/** A reload of `page` with the model chosen: the time until the next answer shows. */
async function reloadAndAsk(page: Page, text: string): Promise<number> {
  const start = performance.now();
  await page.reload();
  await page.locator('button.model-button', { hasText: /test[ -]scripted/ }).waitFor({ timeout: 120_000 });
  await askInChat(page, text);
  return performance.now() - start;
}

interface Figures {
  first: Record<Path, { ms: number[]; bytes: number[]; unthrottled: number[]; downloads: string[] }>;
  offlineMs: number[];
  totalBytes: number[];
  repeatMs: number[];
  offlineReloadMs: number[];
}

/** One round of every visit against the build at `origin`. */
async function round(origin: string, figures: Figures): Promise<void> {
  for (const path of ['picker', 'preset'] as const) {
    const fast = await visit(origin, path, false);
    figures.first[path].unthrottled.push(fast.ms);
    await fast.context.close();

    const slow = await visit(origin, path, true);
    figures.first[path].ms.push(slow.ms);
    figures.first[path].bytes.push(slow.bytes);
    figures.first[path].downloads = slow.downloads;
    if (path === 'picker') {
      await slow.page.waitForFunction(() => window.localRuntime!.offlineFiles.current()?.state === 'done', undefined, { timeout: 300_000, polling: 100 });
      figures.offlineMs.push(slow.net!.now());
      figures.totalBytes.push(slow.net!.bytes());
      figures.repeatMs.push(await reloadAndAsk(slow.page, 'again'));
      await slow.context.setOffline(true);
      figures.offlineReloadMs.push(await reloadAndAsk(slow.page, 'offline'));
    }
    await slow.context.close();
  }
}

const empty = (): Figures => ({
  first: { picker: { ms: [], bytes: [], unthrottled: [], downloads: [] }, preset: { ms: [], bytes: [], unthrottled: [], downloads: [] } },
  offlineMs: [],
  totalBytes: [],
  repeatMs: [],
  offlineReloadMs: [],
});

test('first visit at 10 Mbit/s, through the picker and with the model preset: time and bytes until the first answer; then offline, a repeat visit and an offline reload', { timeout: 3_600_000 }, async () => {
  const builds = [{ name: 'this build', origin: e2e.app.origin, figures: empty() }, ...(baseline ? [{ name: 'baseline', origin: baseline.origin, figures: empty() }] : [])];
  for (let i = 0; i < ROUNDS; i++) {
    // Alternating, and each build first every other round.
    for (const build of i % 2 === 0 ? builds : [...builds].reverse()) await round(build.origin, build.figures);
  }
  const cell = (values: number[], format: (x: number) => string) => format(median(values)).padStart(10);
  const columns = (pick: (f: Figures) => number[], format: (x: number) => string) => builds.map((b) => cell(pick(b.figures), format)).join(' ');
  const label = (text: string) => text.padEnd(38);
  const lines = [
    `\nFirst visit at ${LINK.bitsPerSecond / 1e6} Mbit/s / ${LINK.latencyMs} ms (page + service worker throttled), median of ${ROUNDS} fresh profiles`,
    `${label('')} ${builds.map((b) => b.name.padStart(10)).join(' ')}`,
    ...(['picker', 'preset'] as const).flatMap((path) => [
      label(path === 'picker' ? 'picker (a newcomer chooses the model)' : 'preset (model already set, SDK)'),
      `${label('  time to the first answer')} ${columns((f) => f.first[path].ms, s)}`,
      `${label('  bytes before it')} ${columns((f) => f.first[path].bytes, mb)}`,
      `${label('  time unthrottled (the CPU’s share)')} ${columns((f) => f.first[path].unthrottled, s)}`,
    ]),
    label('after the picker visit'),
    `${label('  every file kept offline')} ${columns((f) => f.offlineMs, s)}`,
    `${label('  bytes of the whole visit')} ${columns((f) => f.totalBytes, mb)}`,
    `${label('  repeat visit (reload, answer)')} ${columns((f) => f.repeatMs, s)}`,
    `${label('  offline reload (answer)')} ${columns((f) => f.offlineReloadMs, s)}`,
    `goal: the first answer ≤ 1 MB and ≤ 3 s by either path`,
    ...(['picker', 'preset'] as const).flatMap((path) => [`${VERBOSE ? 'downloads' : 'biggest downloads'} before the ${path} path's answer (this build, last round):`, ...builds[0]!.figures.first[path].downloads]),
  ];
  console.log(lines.join('\n'));
});
