/**
 * `npm run bench:pipeline`: tokens/s delivered to a page through the whole local HTTP
 * path vs the same server function called inside the runtime worker with no transport,
 * and the time to first byte the service-worker hop adds. Paths run alternately, one run
 * each per round; the table shows medians (see ../shared/TESTING.md "Benchmarks").
 *
 * Paths (all with `test-scripted`, zero delay, SSE, event log persisted):
 *   worker        server.fetch inside the runtime worker, body read there (baseline)
 *   sdk·sw        the openai SDK in the page, fetch('/v1/responses') through the SW
 *   fetch·sw      raw fetch through the SW, SSE counted in the page
 *   fetch·direct  raw fetch over a MessagePort straight to the runtime (no SW)
 * each with bodies as chunk messages (`chunks`, the default) and as transferred streams
 * (`stream`); each mode in its own browser context, so its own SW and runtime.
 */
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, test } from 'vitest';
import { configureRuntime, startE2E, waitForRuntime } from '../support/browser';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SCRIPT_CHARS = Number(process.env.BENCH_CHARS ?? 20_000);
const BODY = JSON.stringify({
  model: 'test-scripted',
  input: JSON.stringify({ script: 'abcd'.repeat(SCRIPT_CHARS / 4), delay_ms: 0, chunk: 4 }),
  stream: true,
});

type PathName = 'worker' | 'sdk·sw' | 'fetch·sw' | 'fetch·direct';
interface Timing {
  firstByteMs: number;
  totalMs: number;
  deltas: number;
}

/** Runs one request along `path` inside `page` and times it there. */
function runPath(page: Page, path: PathName): Promise<Timing> {
  return page.evaluate(
    async ({ path, body }) => {
      const runtime = window.localRuntime!;
      if (path === 'worker') return runtime.control()!.streamDirect(body);
      const t0 = performance.now();
      if (path === 'sdk·sw') {
        const stream = await window.sdk!.responses.create(JSON.parse(body) as ResponseCreateParamsStreaming);
        let firstByteMs = -1;
        let deltas = 0;
        for await (const event of stream) {
          if (firstByteMs < 0) firstByteMs = performance.now() - t0;
          if (event.type === 'response.output_text.delta') deltas++;
        }
        return { firstByteMs, totalMs: performance.now() - t0, deltas };
      }
      const fetchFn = path === 'fetch·sw' ? fetch : runtime.fetch;
      const response = await fetchFn(`${location.origin}/v1/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let firstByteMs = -1;
      let deltas = 0;
      let buffered = '';
      const needle = 'event: response.output_text.delta';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (firstByteMs < 0) firstByteMs = performance.now() - t0;
        buffered += value;
        const cut = buffered.lastIndexOf('\n\n');
        if (cut < 0) continue;
        const whole = buffered.slice(0, cut);
        for (let i = whole.indexOf(needle); i >= 0; i = whole.indexOf(needle, i + needle.length)) deltas++;
        buffered = buffered.slice(cut + 2);
      }
      return { firstByteMs, totalMs: performance.now() - t0, deltas };
    },
    { path, body: BODY },
  );
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

let e2e: Awaited<ReturnType<typeof startE2E>>;
const pages = new Map<'stream' | 'chunks', Page>();
beforeAll(async () => {
  e2e = await startE2E();
  // One browser context (own SW + runtime) per body mode; they never run at the same time.
  for (const mode of ['chunks', 'stream'] as const) {
    const context = await e2e.browser.newContext();
    await configureRuntime(context, e2e.app.origin, { options: { bodyMode: mode } });
    const page = await context.newPage();
    await page.goto(`${e2e.app.origin}/?test-models`);
    await waitForRuntime(page);
    pages.set(mode, page);
  }
});
afterAll(() => e2e?.close());

test('pipeline benchmark', { timeout: 30 * 60_000 }, async () => {
  const paths: PathName[] = ['worker', 'sdk·sw', 'fetch·sw', 'fetch·direct'];
  const runs = new Map<string, Timing[]>();
  for (let round = -1; round < ROUNDS; round++) {
    for (const [mode, page] of pages) {
      for (const path of paths) {
        const timing = await runPath(page, path);
        if (round < 0) continue; // warm-up: JIT, IndexedDB open, SW start
        const key = `${path} (${mode})`;
        runs.set(key, [...(runs.get(key) ?? []), timing]);
      }
    }
  }

  const rows = [...runs].map(([key, timings]) => {
    const baseline = runs.get(`worker (${key.endsWith('(chunks)') ? 'chunks' : 'stream'})`)!;
    const tps = timings.map((t) => t.deltas / (t.totalMs / 1000));
    // Ratios are paired per round (same round = same machine conditions), then the median.
    const ratio = median(timings.map((t, i) => t.deltas / t.totalMs / (baseline[i]!.deltas / baseline[i]!.totalMs)));
    return {
      path: key,
      'tokens/run': timings[0]!.deltas,
      'tokens/s': Math.round(median(tps)),
      'vs worker': ratio.toFixed(2),
      'ttfb ms': median(timings.map((t) => t.firstByteMs)).toFixed(2),
      'total ms': median(timings.map((t) => t.totalMs)).toFixed(1),
    };
  });
  /** Median over rounds of (a − b) time to first byte, paired per round. */
  const added = (a: string, b: string) => {
    const as = runs.get(a)!;
    const bs = runs.get(b)!;
    return median(as.map((t, i) => t.firstByteMs - bs[i]!.firstByteMs));
  };
  const row = (path: string) => rows.find((r) => r.path === path)!;
  const full = row('sdk·sw (chunks)');
  const swHop = added('fetch·sw (chunks)', 'fetch·direct (chunks)');
  console.log(`\npipeline benchmark: ${ROUNDS} rounds (+1 warm-up), ${SCRIPT_CHARS} chars, chunk 4, delay 0\n`);
  console.table(rows);
  console.log('time to first byte added, median of per-round differences (ms):');
  console.table(
    (['chunks', 'stream'] as const).map((mode) => ({
      mode,
      'SW hop (fetch·sw − fetch·direct)': added(`fetch·sw (${mode})`, `fetch·direct (${mode})`).toFixed(2),
      'whole transport (fetch·sw − worker)': added(`fetch·sw (${mode})`, `worker (${mode})`).toFixed(2),
    })),
  );
  const check = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log('targets (issue 3), default path = SDK through the SW, chunk messages:');
  console.log(`  ≥ 5,000 tokens/s: ${full['tokens/s']} → ${check(full['tokens/s'] >= 5000)}`);
  console.log(`  ratio ≥ 0.8 vs in-worker: ${full['vs worker']} → ${check(Number(full['vs worker']) >= 0.8)}`);
  console.log(`  SW hop adds ≤ 5 ms to first byte: ${swHop.toFixed(2)} ms → ${check(swHop <= 5)}\n`);
});
