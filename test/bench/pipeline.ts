/**
 * `npm run bench:pipeline`: tokens/s delivered to a page through the whole local HTTP
 * path vs the same server function called inside the runtime worker with no transport,
 * and the time to first byte the service-worker hop adds. Paths run alternately, one run
 * each per round; the table shows medians (see ../shared/TESTING.md "Benchmarks").
 *
 * Paths (all with `test-scripted`, zero delay, SSE, event log persisted):
 *   worker        the same server (createLocalServer) inside a bench-only worker, body
 *                 read there: no transport at all (baseline; test/bench/bench-worker.ts)
 *   sdk·sw        the openai SDK in the page, fetch('/v1/responses') through the SW
 *   fetch·sw      raw fetch through the SW, SSE counted in the page
 *   fetch·direct  raw fetch over a MessagePort straight to the runtime (no SW)
 * All run from the bench page (test/bench/bench-page.ts), built only for the benchmarks.
 * Bodies cross threads as chunk messages, the transport's only mode (why: src/transport/wire.ts).
 */
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, test } from 'vitest';
import { startE2E } from '../support/browser';
import { openBenchPage } from './open-bench-page';
import { median } from './median';

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
      if (path === 'worker') return window.bench!.streamDirect(body);
      const t0 = performance.now();
      if (path === 'sdk·sw') {
        const stream = await window.swSdk!.responses.create(JSON.parse(body) as ResponseCreateParamsStreaming);
        let firstByteMs = -1;
        let deltas = 0;
        for await (const event of stream) {
          if (firstByteMs < 0) firstByteMs = performance.now() - t0;
          if (event.type === 'response.output_text.delta') deltas++;
        }
        return { firstByteMs, totalMs: performance.now() - t0, deltas };
      }
      const fetchFn = path === 'fetch·sw' ? window.browserFetch! : runtime.fetch;
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


let e2e: Awaited<ReturnType<typeof startE2E>>;
let page: Page;
beforeAll(async () => {
  e2e = await startE2E();
  page = await openBenchPage(await e2e.browser.newContext(), e2e.app.origin);
});
afterAll(() => e2e?.close());

test('pipeline benchmark', { timeout: 30 * 60_000 }, async () => {
  const paths: PathName[] = ['worker', 'sdk·sw', 'fetch·sw', 'fetch·direct'];
  const runs = new Map<PathName, Timing[]>();
  for (let round = -1; round < ROUNDS; round++) {
    for (const path of paths) {
      const timing = await runPath(page, path);
      if (round < 0) continue; // warm-up: JIT, IndexedDB open, SW start
      runs.set(path, [...(runs.get(path) ?? []), timing]);
    }
  }

  const rows = [...runs].map(([key, timings]) => {
    const baseline = runs.get('worker')!;
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
  const added = (a: PathName, b: PathName) => {
    const as = runs.get(a)!;
    const bs = runs.get(b)!;
    return median(as.map((t, i) => t.firstByteMs - bs[i]!.firstByteMs));
  };
  const full = rows.find((r) => r.path === 'sdk·sw')!;
  const swHop = added('fetch·sw', 'fetch·direct');
  console.log(`\npipeline benchmark: ${ROUNDS} rounds (+1 warm-up), ${SCRIPT_CHARS} chars, chunk 4, delay 0\n`);
  console.table(rows);
  console.log('time to first byte added, median of per-round differences (ms):');
  console.table([
    {
      'SW hop (fetch·sw − fetch·direct)': swHop.toFixed(2),
      'whole transport (fetch·sw − worker)': added('fetch·sw', 'worker').toFixed(2),
    },
  ]);
  const check = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log('targets (issue 3), default path = SDK through the SW:');
  console.log(`  ≥ 5,000 tokens/s: ${full['tokens/s']} → ${check(full['tokens/s'] >= 5000)}`);
  console.log(`  ratio ≥ 0.8 vs in-worker: ${full['vs worker']} → ${check(Number(full['vs worker']) >= 0.8)}`);
  console.log(`  SW hop adds ≤ 5 ms to first byte: ${swHop.toFixed(2)} ms → ${check(swHop <= 5)}\n`);
});
