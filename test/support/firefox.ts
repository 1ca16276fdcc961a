/**
 * End-to-end harness for the second browser: a stock Firefox (Debian's `firefox-esr`, or
 * `$FIREFOX_PATH`) driven over WebDriver BiDi by `puppeteer-core` (Playwright's own Firefox
 * build cannot be downloaded here and Playwright does not drive a stock one), with the
 * production build served as for Chromium (`serveDist` in ./browser.ts). Each launch gets
 * a fresh temporary profile, so each test file starts from a first visit.
 */
import fs from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { expect, inject } from 'vitest';
import { WASM_FOUND_FINE } from '../../src/engine/wllama/errors';
import { serveDist, type RuntimeSettings, type Served } from './browser';
import { MAX_RETRIES_PER_RUN, recordRetry, retriesSoFar } from './firefox-retries';

export const FIREFOX_PATH = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
export const HAVE_FIREFOX = fs.existsSync(FIREFOX_PATH);
/** Why the Firefox tests did not run, in the words a developer needs to make them run. */
export const NO_FIREFOX = `Firefox is not installed at ${FIREFOX_PATH}: install it (Debian/Ubuntu: apt-get install firefox-esr) or set FIREFOX_PATH to a Firefox binary`;

/** Prefs on top of puppeteer's own test profile (which already turns off updates, telemetry, safe browsing). */
const PREFS: Record<string, unknown> = {
  // No connectivity or captive-portal checks: these machines have no internet.
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  // No "What's new"/onboarding tabs or remote settings.
  'browser.aboutwelcome.enabled': false,
  'toolkit.telemetry.enabled': false,
};

export interface FirefoxOptions {
  /** A profile to keep (a later launch reopens it); default: a fresh temporary one. */
  userDataDir?: string;
  /** More prefs, e.g. `{'dom.serviceWorkers.enabled': false}`. */
  prefs?: Record<string, unknown>;
}

export function launchFirefox(options: FirefoxOptions = {}): Promise<Browser> {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    protocol: 'webDriverBiDi',
    extraPrefsFirefox: { ...PREFS, ...options.prefs },
    // A loaded 2-core machine: a page.evaluate that waits on a model must not time out first.
    protocolTimeout: 180_000,
    ...(options.userDataDir ? { userDataDir: options.userDataDir } : {}),
  });
}

/** A Firefox and the app server for one test file. */
export async function startFirefoxE2E(): Promise<{ browser: Browser; app: Served; close(): Promise<void> }> {
  const [browser, app] = await Promise.all([launchFirefox(), serveDist()]);
  return {
    browser,
    app,
    async close() {
      await Promise.all([browser.close(), app.close()]);
    },
  };
}

/**
 * Stores runtime settings for `origin` before any document of `page` loads, as the app's
 * settings screen would (as `configureRuntime` in ./browser.ts does for Playwright).
 */
export async function configureFirefoxRuntime(page: Page, origin: string, settings: RuntimeSettings): Promise<void> {
  await page.evaluateOnNewDocument(
    (origin: string, settings: RuntimeSettings) => {
      // Every frame runs this: only the app's own documents (the sandbox frame has no storage).
      if (location.origin !== origin) return;
      if (settings.modelBase !== undefined) localStorage.setItem('local-responses/model-base', settings.modelBase);
      if (settings.options !== undefined) localStorage.setItem('local-responses/runtime-options', JSON.stringify(settings.options));
    },
    origin,
    settings,
  );
}

/**
 * Opens the app with test models on a new page (after `configure`, e.g.
 * {@link configureFirefoxRuntime}) and waits until the runtime answers.
 */
export async function openAppInFirefox(browser: Browser, origin: string, configure?: (page: Page) => Promise<void>): Promise<Page> {
  const page = await browser.newPage();
  await configure?.(page);
  await page.goto(`${origin}/?test-models`);
  await waitForRuntimeInFirefox(page);
  return page;
}

/** Waits for the app's runtime to be ready (or throws with what the app says went wrong). */
export async function waitForRuntimeInFirefox(page: Page): Promise<void> {
  const state = await page.waitForSelector('[data-runtime-state]:not([data-runtime-state="starting"])', { timeout: 30_000 });
  const value = await state!.evaluate((el) => [el.getAttribute('data-runtime-state'), el.textContent] as const);
  if (value[0] !== 'ready') throw new Error(`runtime did not start: ${value[1]}`);
  await page.waitForFunction(() => window.sdk !== undefined, { timeout: 10_000 });
}

/**
 * What Firefox reports as page errors without anything being wrong (each measured):
 * - every service-worker response whose reader is cancelled (an SDK stream left with
 *   `break`, an aborted fetch) logs this, even from a ten-line service worker that only
 *   answers with a ReadableStream;
 * - the sandbox's Content-Security-Policy refusing a script is the sandbox working: pyodide
 *   probes `importScripts('data:…')` to tell a classic worker, and looks for its module at
 *   the never-fetched `https://pyodide.invalid/` (src/tools/python/python-worker-main.ts).
 */
const FIREFOX_NOISE = [
  /^Failed to load ‘.*’\. A ServiceWorker intercepted the request and encountered an unexpected error\.$/,
  /^Content-Security-Policy: The page’s settings blocked a script \(script-src-elem\) at (data:text\/javascript,|https:\/\/pyodide\.invalid\/)/,
];

/** Collects the page's uncaught errors, leaving out Firefox's own noise (see FIREFOX_NOISE); a test asserts it stays empty. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => {
    const message = error instanceof Error ? error.message : String(error);
    if (!FIREFOX_NOISE.some((noise) => noise.test(message))) errors.push(message);
  });
  return errors;
}

/**
 * A worker thread of the page stuck for good while it creates a nested worker. This is the
 * test driver's doing, not the app's: while any WebDriver BiDi session is open, Firefox's
 * remote agent registers a worker-debugger listener (RootMessageHandler →
 * WebDriverWorkerListenerActor), and a worker that creates workers then sometimes never
 * returns from `new Worker()`. Measured on Firefox ESR 153: a loop creating nested workers
 * stops for good after 5–25 of them in a BiDi-driven Firefox, and runs 200 in 3.4 s in the
 * same Firefox started without a remote protocol. The runtime worker creates nested workers
 * when it loads a GGUF (wllama's cache writer, its llama.cpp worker and thread pool), so a
 * model load can hang here; a person's Firefox does not.
 */
export class NestedWorkerDeadlock extends Error {
  override name = 'NestedWorkerDeadlock';
}

/**
 * The same deadlock one level down: the llama.cpp worker (itself created by the runtime
 * worker) stuck creating its thread pool; the runtime's own watchdog then fails the load
 * with this message (src/engine/wllama/errors.ts, `engineStartTimeout`), which says what a
 * probe of the wasm found.
 */
const ENGINE_DID_NOT_START = /The llama\.cpp WebAssembly engine did not start within \d+ s/;

/**
 * For the app's report of a load that failed (`message`; nothing when it did not fail): the
 * deadlock above only when the engine did not start and the probe found its wasm served and
 * valid ({@link WASM_FOUND_FINE}) — nothing else to blame. A cause the probe found (the wasm
 * missing, refused, not compilable) is the app's failure: thrown at once, whole, never retried.
 */
export function throwIfEngineStuck(message: string | null | undefined): void {
  if (!message || !ENGINE_DID_NOT_START.test(message)) return;
  if (message.includes(WASM_FOUND_FINE)) throw new NestedWorkerDeadlock(`the llama.cpp worker never started its threads, its wasm being fine (“${message}”)`);
  throw new Error(`The CPU engine did not start, and the app found why (not the driver's deadlock): ${message}`);
}

/**
 * Runs `work` while the runtime worker is asked every second whether it still answers
 * (`GET /v1/models` straight over its port); silent for `silentMs`, it is taken for the
 * deadlock above and `work` is abandoned with {@link NestedWorkerDeadlock}.
 */
export async function whileRuntimeAnswers<T>(page: Page, work: () => Promise<T>, silentMs = 20_000): Promise<T> {
  let done = false;
  const watch = (async (): Promise<never> => {
    let answeredAt = Date.now();
    while (!done) {
      const answered = await Promise.race([
        page.evaluate(async () => (await window.localRuntime!.fetch('/v1/models')).ok).catch(() => false),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 1_000)),
      ]);
      if (answered) answeredAt = Date.now();
      else if (!done && Date.now() - answeredAt > silentMs) throw new NestedWorkerDeadlock(`the runtime worker has not answered for ${silentMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    return new Promise<never>(() => {});
  })();
  try {
    return await Promise.race([work(), watch]);
  } finally {
    done = true;
  }
}

/**
 * For a request that failed outright (the SDK's "Connection error.": the service worker lost
 * the runtime): the deadlock above only when the runtime worker no longer answers within
 * `waitMs` and nothing else is to blame — no page error (`errors`, from {@link pageErrors})
 * and no load failure shown in the page. Otherwise the error itself, with what else was
 * found: an app that answers and still failed, or that says why it stopped, failed for real.
 */
export async function deadlockOr(page: Page, error: unknown, errors: readonly string[] = [], waitMs = 5_000): Promise<never> {
  const answers = await Promise.race([
    page.evaluate(async () => (await window.localRuntime!.fetch('/v1/models')).ok).catch(() => false),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), waitMs)),
  ]);
  if (answers) throw error;
  const shown = await Promise.race([
    page.evaluate(() => document.querySelector('.load-card .load-failure')?.textContent ?? null).catch(() => null),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 2_000)),
  ]);
  const found = [...errors, ...(shown ? [`the page shows: ${shown}`] : [])];
  if (found.length === 0) throw new NestedWorkerDeadlock(`a request failed (${String(error)}) and the runtime worker no longer answers`);
  throw new Error(`A request failed (${String(error)}) and the runtime worker no longer answers, with a cause to look at (not the driver's deadlock): ${found.join('; ')}`, { cause: error });
}

/**
 * `run(0)`, then — only when it ended in {@link NestedWorkerDeadlock}, after `recover`, which
 * closes the stuck browser — again in a new Firefox, up to {@link DEADLOCK_ATTEMPTS} times in
 * all: the driver's deadlock, never a failure of the app hidden by a retry (any other error
 * ends it at once). On 2 cores it struck one run in three, twice in a row once: one retry was
 * not enough for CI. Every retry is written to the run's retry log and listed in its summary;
 * past {@link MAX_RETRIES_PER_RUN} in the run the deadlock fails the test instead
 * (./firefox-retries.ts).
 */
export const DEADLOCK_ATTEMPTS = 3;
export async function retryOnNestedWorkerDeadlock<T>(run: (attempt: number) => Promise<T>, recover: () => Promise<void>, log: string | undefined = inject('firefoxRetryLog')): Promise<T> {
  if (!log) throw new Error("No retry log: the e2e-firefox project's globalSetup (test/support/firefox-retries-setup.ts) did not run, and a retry that is not recorded is not allowed.");
  const test = expect.getState().currentTestName ?? '(unnamed test)';
  for (let attempt = 0; ; attempt++) {
    try {
      return await run(attempt);
    } catch (error) {
      if (!(error instanceof NestedWorkerDeadlock)) throw error;
      const spent = retriesSoFar(log) >= MAX_RETRIES_PER_RUN;
      const retried = !spent && attempt + 1 < DEADLOCK_ATTEMPTS;
      recordRetry(log, { test, attempt: attempt + 1, reason: error.message, retried });
      if (!retried) {
        error.message += spent ? ` — not retried: this run already retried ${MAX_RETRIES_PER_RUN} times` : ` — after ${DEADLOCK_ATTEMPTS} attempts`;
        throw error;
      }
      console.warn(`[firefox e2e] ${error.message}: Firefox's remote agent deadlocked a nested worker creation (see NestedWorkerDeadlock); attempt ${attempt + 2} of ${DEADLOCK_ATTEMPTS} in a new Firefox (recorded for the run's summary).`);
      await recover();
    }
  }
}
