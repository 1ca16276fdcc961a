/**
 * `npm run bench:tool-search` (issue 33): what deferred tools save, in real Chromium with the
 * built app, through the `openai` SDK in the page.
 *
 * 1. Prompt tokens of a first request with 200 functions (100 top-level, 100 in one
 *    namespace; `POST /v1/responses/input_tokens`): all listed ("before") against all
 *    deferred behind `tool_search` ("after": the prompt lists tool_search and nothing else),
 *    for `test-scripted` (the Qwen format, ~4 characters a token) and `test-stories260k-qwen`
 *    (stories260K's own tokenizer under the Qwen format: a 512-token vocabulary, so many more
 *    tokens for the same text). Then what one search adds when it runs (test-scripted: the
 *    model searches, 5 tools load, it answers): the second round's prompt tokens.
 * 2. On the CPU engine (wllama, `../shared/models/stories260K.gguf` as `test-stories260k-qwen`),
 *    time to first token of a turn that follows a load, ÷ that of the turn before it, greedy:
 *      turn 1    a fresh session (its own instructions) with a ~1,000-token history, the 200
 *                functions deferred;
 *      turn 2    `previous_response_id` turn 1, input: a `tool_search_call` and the
 *                `tool_search_output` that loaded `get_weather` (as the runtime writes them:
 *                stories260K cannot call a tool itself, so the client sends the items),
 *                then a short message — the load sits after the cached prefix;
 *      control   the same turn 2, but with `get_weather` no longer deferred (listed at the
 *                prompt's start, as if a load went into the leading tool list): the prefix
 *                changes near the start and the prompt is computed again.
 *    Medians over BENCH_ROUNDS (default 5) sessions, after a warm-up turn (the model's load), with
 *    the floor — the time to first token of a 2-token prompt without tools — for scale. Skipped (with why) when stories260K is absent.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, test } from 'vitest';
import { configureRuntime, openApp, serveModelMirror, startE2E, type ModelMirror } from '../support/browser';
import { HAVE_STORIES, STORIES_ABSENT, STORIES_PATH } from '../fixtures/stories260k';
import { median } from './median';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const STORIES = 'test-stories260k-qwen';

let e2e: Awaited<ReturnType<typeof startE2E>>;
let mirror: ModelMirror;
let mirrorDir: string;
let page: Page;

beforeAll(async () => {
  mirrorDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tool-search-bench-'));
  if (HAVE_STORIES) fs.copyFileSync(STORIES_PATH, path.join(mirrorDir, 'stories260K.gguf'));
  [e2e, mirror] = await Promise.all([startE2E(), serveModelMirror(mirrorDir)]);
  const context = await e2e.browser.newContext();
  await configureRuntime(context, e2e.app.origin, { modelBase: mirror.base });
  page = await openApp(context, e2e.app.origin);
}, 180_000);
afterAll(async () => {
  await Promise.all([e2e?.close(), mirror?.close()]);
  if (mirrorDir) fs.rmSync(mirrorDir, { recursive: true, force: true });
});

/** The 200 functions (sent into the page as data): 10 verbs × 20 objects, half of them in a namespace. */
function defineTools() {
  const verbs = ['get', 'list', 'create', 'update', 'delete', 'search', 'send', 'book', 'cancel', 'export'];
  const objects = ['weather', 'email', 'invoice', 'customer', 'flight', 'hotel', 'event', 'note', 'ticket', 'payment', 'order', 'contact', 'file', 'report', 'task', 'recipe', 'song', 'route', 'reminder', 'document'];
  const fns = verbs.flatMap((verb) =>
    objects.map((object) => ({
      type: 'function' as const,
      name: `${verb}_${object}`,
      description: `${verb[0]!.toUpperCase()}${verb.slice(1)} ${object} records for the user (${object} service), and return them as JSON.`,
      parameters: { type: 'object', properties: { id: { type: 'string', description: `The ${object} id.` }, limit: { type: 'integer', description: 'At most this many results.' } }, required: ['id'] },
      strict: false,
    })),
  );
  return { top: fns.slice(0, 100), grouped: fns.slice(100) };
}

test('prompt tokens of the first request: 200 functions listed, against deferred behind tool_search', async () => {
  const rows = await page.evaluate(
    async ({ defined, models }) => {
      const { top, grouped } = defined;
      const tools = (defer: boolean) => [
        ...(defer ? [{ type: 'tool_search' as const }] : []),
        ...top.map((f) => ({ ...f, ...(defer ? { defer_loading: true } : {}) })),
        { type: 'namespace' as const, name: 'office', description: 'Office services.', tools: grouped.map((f) => ({ ...f, ...(defer ? { defer_loading: true } : {}) })) },
      ];
      const out = [];
      for (const model of models) {
        const count = async (defer: boolean) => (await window.sdk!.responses.inputTokens.count({ model, tools: tools(defer) as never, input: 'What is the weather in Oslo?' })).input_tokens;
        out.push({ model, before: await count(false), after: await count(true) });
      }
      // One search run by the runtime: the second round's prompt holds the prefix and the 5 loaded tools.
      const call = (name: string, args: object) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
      const searched = await window.sdk!.responses.create({
        model: 'test-scripted',
        tools: tools(true) as never,
        input: JSON.stringify({ script: [call('tool_search', { query: 'weather forecast' }), 'Done.'] }),
      });
      const loaded = ((searched.output[1] as unknown as { tools: Array<{ name: string; tools?: Array<{ name: string }> }> }).tools ?? []).flatMap((t) => (t.tools ? t.tools.map((m) => `${t.name}.${m.name}`) : [t.name]));
      return { rows: out, searched: { inputTokens: searched.usage?.input_tokens ?? 0, loaded } };
    },
    { defined: defineTools(), models: ['test-scripted', ...(HAVE_STORIES ? [STORIES] : [])] },
  );
  console.log('\nFirst request, 200 functions — prompt tokens (POST /v1/responses/input_tokens)');
  console.log('model                    all listed   deferred + tool_search   saved');
  for (const r of rows.rows) console.log(`${r.model.padEnd(24)} ${String(r.before).padStart(10)}   ${String(r.after).padStart(22)}   ${(100 * (1 - r.after / r.before)).toFixed(1)}%`);
  console.log(`test-scripted, one search run here (2 rounds): input_tokens ${rows.searched.inputTokens} in all; loaded ${rows.searched.loaded.join(', ')}`);
}, 120_000);

test.skipIf(!HAVE_STORIES)(`CPU engine (${STORIES}): time to first token after a load, turn 2 ÷ turn 1`, async () => {
  const results = await page.evaluate(
    async ({ defined, model, rounds }) => {
      const { top, grouped } = defined;
      const tools = (listWeather: boolean) => [
        { type: 'tool_search' as const },
        ...top.map((f) => ({ ...f, ...(listWeather && f.name === 'get_weather' ? {} : { defer_loading: true }) })),
        { type: 'namespace' as const, name: 'office', description: 'Office services.', tools: grouped.map((f) => ({ ...f, defer_loading: true })) },
      ];
      const weather = { ...top.find((f) => f.name === 'get_weather')!, defer_loading: true };
      const words = ['the', 'little', 'girl', 'saw', 'a', 'big', 'red', 'ball', 'in', 'park', 'and', 'she', 'was', 'happy', 'one', 'day'];
      const sentence = (seed: number) => Array.from({ length: 40 }, (_, i) => words[(seed * 7 + i * 5) % words.length]).join(' ');
      const timed = async (body: Record<string, unknown>) => {
        const t0 = performance.now();
        let first = -1;
        let usage = { input_tokens: 0, input_tokens_details: { cached_tokens: 0 } };
        let id = '';
        const stream = await window.sdk!.responses.create({ model, temperature: 0, max_output_tokens: 16, stream: true, ...body } as never);
        for await (const event of stream as unknown as AsyncIterable<{ type: string; response?: { id: string; usage: typeof usage; error?: { message: string } } }>) {
          if (first < 0 && (event.type === 'response.output_text.delta' || event.type === 'response.output_item.added')) first = performance.now() - t0;
          if (event.type === 'response.completed' || event.type === 'response.incomplete') ({ id, usage } = { id: event.response!.id, usage: event.response!.usage });
          if (event.type === 'response.failed') throw new Error(event.response?.error?.message ?? 'failed');
        }
        return { id, firstTokenMs: first, inputTokens: usage.input_tokens, cachedTokens: usage.input_tokens_details.cached_tokens };
      };
      // The model loads (and the engine warms up) before anything is timed; then the floor: a
      // 1-message prompt with no tools, what a turn costs besides its prefill.
      await timed({ input: 'Once upon a time' });
      const floor = [];
      for (let round = 0; round < rounds; round++) floor.push((await timed({ input: `Hi ${round}` })).firstTokenMs);
      const out = [];
      for (let round = 0; round < rounds; round++) {
        const history = Array.from({ length: 8 }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: sentence(round * 31 + i) }));
        const session = { instructions: `Session ${round + 1}: tell a short story.`, tools: tools(false) };
        const turn1 = await timed({ ...session, input: [...history, { role: 'user', content: 'What happened next?' }] });
        const callId = `call_bench_${round}`;
        const turn2 = await timed({
          ...session,
          previous_response_id: turn1.id,
          input: [
            { type: 'tool_search_call', call_id: callId, execution: 'server', status: 'completed', arguments: { query: 'weather' } },
            { type: 'tool_search_output', call_id: callId, execution: 'server', status: 'completed', tools: [weather] },
            { role: 'user', content: 'And then?' },
          ],
        });
        const control = await timed({ ...session, tools: tools(true), previous_response_id: turn1.id, input: [{ role: 'user', content: 'And then?' }] });
        out.push({ turn1, turn2, control });
      }
      return { sessions: out, floor };
    },
    { defined: defineTools(), model: STORIES, rounds: ROUNDS },
  );
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  console.log(`\nCPU engine, ${STORIES}, ${ROUNDS} sessions (greedy; time to first token, medians)`);
  for (const [i, r] of results.sessions.entries())
    console.log(
      `session ${i + 1}: turn 1 ${ms(r.turn1.firstTokenMs)} (${r.turn1.inputTokens} in, ${r.turn1.cachedTokens} cached) · after a load ${ms(r.turn2.firstTokenMs)} (${r.turn2.inputTokens} in, ${r.turn2.cachedTokens} cached) · load into the leading list ${ms(r.control.firstTokenMs)} (${r.control.inputTokens} in, ${r.control.cachedTokens} cached)`,
    );
  const t1 = median(results.sessions.map((r) => r.turn1.firstTokenMs));
  const t2 = median(results.sessions.map((r) => r.turn2.firstTokenMs));
  const c2 = median(results.sessions.map((r) => r.control.firstTokenMs));
  console.log(`floor (a 2-token prompt, no tools): ${ms(median(results.floor))}`);
  console.log(`turn 2 after a load ÷ turn 1: ${(t2 / t1).toFixed(2)} (${ms(t2)} / ${ms(t1)}); a load into the leading list instead: ${(c2 / t1).toFixed(2)} (${ms(c2)})`);
}, 600_000);

if (!HAVE_STORIES) console.warn(`[bench:tool-search] the CPU part is skipped: ${STORIES_ABSENT}.`);
