/**
 * `npm run bench:websocket`: a 20-turn tool loop (the scripted model calls a function 20
 * times, the client answers each call, then the model answers) over the in-page WebSocket
 * vs the same loop over HTTP through the service worker, in the app's page (Chromium).
 * Target (issue 26): total time WebSocket ÷ HTTP ≤ 0.7.
 *
 * Paths (each turn: `previous_response_id` + the one `function_call_output`; stored; every
 * event streamed):
 *   http·sw   the `openai` SDK through the service worker, `stream: true` (baseline)
 *   ws        one WebSocket connection, a `response.create` frame per turn
 *   ws·store:false   the same without storing, chained through the connection's cache
 * Paths alternate within each round; medians of per-round ratios (../shared/TESTING.md).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, test } from 'vitest';
import { openApp, startE2E } from '../support/browser';
import { median } from './median';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const TURNS = 20;

type PathName = 'http·sw' | 'ws' | 'ws·store:false';

/** Runs the loop along `path` in the page; returns its total time (ms), checked to have done every turn. */
function runLoop(page: Page, path: PathName): Promise<number> {
  return page.evaluate(
    async ({ path, turns }) => {
      const call = (n: number) => `<tool_call>{"name": "step", "arguments": {"n": ${n}}}</tool_call>`;
      const input = JSON.stringify({ script: [...Array.from({ length: turns }, (_, n) => call(n)), 'All steps done.'], delay_ms: 0 });
      const tools = [{ type: 'function' as const, name: 'step', description: 'Do one step', parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, strict: false }];
      const store = path !== 'ws·store:false';
      const t0 = performance.now();
      interface Last {
        id: string;
        output: Array<{ type: string; call_id?: string }>;
        output_text?: string;
      }
      let last = null as Last | null;
      if (path === 'http·sw') {
        const sdk = window.sdk!;
        for (let turn = 0; turn <= turns; turn++) {
          const callId = last?.output.find((item) => item.type === 'function_call')?.call_id;
          const stream = await sdk.responses.create({
            model: 'test-scripted',
            tools,
            stream: true,
            ...(last ? { previous_response_id: last.id, input: [{ type: 'function_call_output', call_id: callId!, output: `step ${turn - 1} done` }] } : { input }),
          });
          for await (const event of stream) if (event.type === 'response.completed') last = event.response as unknown as Last;
        }
      } else {
        const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/v1/responses`);
        await new Promise((resolve) => ws.addEventListener('open', resolve, { once: true }));
        let done: (response: Last) => void = () => {};
        ws.addEventListener('message', (event) => {
          const frame = JSON.parse(String(event.data)) as { type: string; response?: Last; error?: unknown };
          if (frame.type === 'response.completed') done(frame.response!);
          else if (frame.type === 'error' || frame.type === 'response.failed') throw new Error(JSON.stringify(frame));
        });
        for (let turn = 0; turn <= turns; turn++) {
          const callId = last?.output.find((item) => item.type === 'function_call')?.call_id;
          const next = new Promise<Last>((resolve) => (done = resolve));
          ws.send(
            JSON.stringify({
              type: 'response.create',
              model: 'test-scripted',
              tools,
              store,
              ...(last ? { previous_response_id: last.id, input: [{ type: 'function_call_output', call_id: callId!, output: `step ${turn - 1} done` }] } : { input }),
            }),
          );
          last = await next;
        }
        ws.close();
      }
      const ms = performance.now() - t0;
      if (last?.output_text !== 'All steps done.') throw new Error(`${path}: the loop did not finish (${JSON.stringify(last).slice(0, 200)})`);
      return ms;
    },
    { path, turns: TURNS },
  );
}


let e2e: Awaited<ReturnType<typeof startE2E>>;
let page: Page;
beforeAll(async () => {
  e2e = await startE2E();
  page = await openApp(await e2e.browser.newContext(), e2e.app.origin);
});
afterAll(() => e2e?.close());

test('websocket benchmark', { timeout: 30 * 60_000 }, async () => {
  const paths: PathName[] = ['http·sw', 'ws', 'ws·store:false'];
  const runs = new Map<PathName, number[]>(paths.map((p) => [p, []]));
  for (let round = -1; round < ROUNDS; round++) {
    // Alternate the order too, so neither path always runs first in a round.
    for (const path of round % 2 ? paths : [...paths].reverse()) {
      const ms = await runLoop(page, path);
      if (round >= 0) runs.get(path)!.push(ms); // round −1 warms up: JIT, IndexedDB, the SW
    }
  }
  const baseline = runs.get('http·sw')!;
  const rows = paths.map((path) => {
    const times = runs.get(path)!;
    return {
      path,
      'total ms (median)': median(times).toFixed(1),
      'ms / turn': (median(times) / (TURNS + 1)).toFixed(2),
      '÷ http·sw (median of rounds)': median(times.map((t, i) => t / baseline[i]!)).toFixed(2),
    };
  });
  console.log(`\nwebsocket benchmark: a ${TURNS}-turn tool loop (+ the answer), test-scripted at delay 0, ${ROUNDS} rounds (+1 warm-up)\n`);
  console.table(rows);
  const ratio = Number(rows[1]!['÷ http·sw (median of rounds)']);
  console.log(`target (issue 26): ws ÷ http·sw ≤ 0.7: ${ratio.toFixed(2)} → ${ratio <= 0.7 ? 'met' : 'MISSED'}`);
});
