/** Node side of the bench page (bench-page.ts): open it and wait until runtime and bench worker are up. */
import type { BrowserContext, Page } from 'playwright-core';

/** The page's path in a build made with LOCAL_RESPONSES_BENCH=1 (see vite.config.ts). */
export const BENCH_PAGE_PATH = '/test/bench/bench.html';

/** Opens the bench page (`query`, e.g. `?model-base=…`) and waits until it is ready. */
export async function openBenchPage(context: BrowserContext, origin: string, query = ''): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${origin}${BENCH_PAGE_PATH}${query}`);
  // Without it in the build, the server answers with the app's page (an SPA fallback).
  if (!(await page.$('body[data-bench]'))) {
    throw new Error(`No bench page at ${BENCH_PAGE_PATH} in dist/: build with \`LOCAL_RESPONSES_BENCH=1 vite build\` (the bench:* npm scripts do).`);
  }
  await page.waitForSelector('body:not([data-bench="starting"])', { state: 'attached', timeout: 60_000 });
  if ((await page.getAttribute('body', 'data-bench')) !== 'ready') throw new Error(`bench page did not start: ${await page.textContent('body')}`);
  return page;
}
