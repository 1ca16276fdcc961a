/**
 * `npm run bench:cpu`: the CPU engine against native llama.cpp, on one ~100M-parameter
 * GGUF (random weights, memory-bound like a real small chat model; made by
 * test/fixtures/make-bench-gguf.ts into node_modules/.cache/bench-cpu, never committed),
 * side by side on this machine. `BENCH_QUANT` picks its quantization: `q4_k_m` (default,
 * ~62 MB: the layout of every CPU model in the catalog) or `q8_0` (~108 MB).
 *
 *   ours           `/v1/responses` through the `openai` SDK → service worker → runtime worker
 *                  → WllamaEngine, with the threads the runtime gives wllama
 *   wllama ×1      wllama in the page (the chunk the runtime uses), `n_threads: 1`
 *   wllama ×N      the same with N threads (needs SharedArrayBuffer, see below)
 *   native ×1/×N   llama.cpp through node-llama-cpp 3.21.1 (CPU), in its own process,
 *                  installed on demand into node_modules/.cache/bench-native: never in
 *                  package.json, so `npm ci` never fetches its binaries
 *
 * decode tokens/s = (tokens − 1) / (last token − first token), greedy, `BENCH_TOKENS` tokens
 * after a short prompt, a new prompt each round; medians over `BENCH_ROUNDS` rounds (the
 * browser paths alternate in rotating order; native runs after them, with the browser idle).
 * Then time to first token of `/v1/responses` for turn 1 of a conversation with a ~2,000-token
 * history, and for turn 2 (`previous_response_id`, a short new message) that reuses it
 * from llama.cpp's KV cache; and decode tokens/s of turn 1's answer, on top of that history,
 * against native decoding after a prompt of the same length (attention then reads the whole
 * KV cache every token, which is where the cache type matters).
 *
 * Threads: wllama starts its thread pool only with SharedArrayBuffer, which a page has only
 * when cross-origin isolated — as the app is (COOP/COEP from its server and service worker).
 * Ours runs with the threads the runtime chose (all cores, read from `/v1/local/status`);
 * `BENCH_THREADS` (default: all cores) sets N for the page's own wllama, `BENCH_OURS_THREADS` the runtime's.
 * `BENCH_HISTORY_TOKENS=0` leaves out the turn-1/turn-2 part (minutes of prefill on 2 cores).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, test } from 'vitest';
import { BENCH_LLAMA, BENCH_QUANTS, benchGgufParameters, makeBenchGguf, type BenchQuant } from '../fixtures/make-bench-gguf';
import { CHROMIUM_ARGS, configureRuntime, serveDist, serveModelMirror, type ModelMirror, type Served } from '../support/browser';
import { BENCH_LLAMA_MODEL_ID, GGUF_TEST_CATALOG } from '../../src/engine/wllama/gguf-catalog';
import { openBenchPage } from './open-bench-page';
import { loadPageWllama, runApiDecode, runPageDecode, runTurns, type DecodeTiming } from './cpu-bench-page';
import { median } from './median';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 64);
const THREADS = Number(process.env.BENCH_THREADS ?? os.cpus().length);
/** Threads for the runtime's own wllama (the `cpu.threads` option); default: what the runtime picks. */
const OURS_THREADS = process.env.BENCH_OURS_THREADS ? Number(process.env.BENCH_OURS_THREADS) : undefined;
const HISTORY_TOKENS = Number(process.env.BENCH_HISTORY_TOKENS ?? 2000);
/** Tokens each turn answers with (turn 1's also time decoding on top of the history). */
const TURN_TOKENS = 16;
const QUANT = (process.env.BENCH_QUANT ?? 'q4_k_m') as BenchQuant;
if (!BENCH_QUANTS.includes(QUANT)) throw new Error(`BENCH_QUANT must be one of ${BENCH_QUANTS.join(', ')}`);
const NATIVE_VERSION = '3.21.1';
// One folder per quantization: the mirror serves the file under the catalog's one name.
const CACHE_DIR = fileURLToPath(new URL(`../../node_modules/.cache/bench-cpu/${QUANT}/`, import.meta.url));
const NATIVE_DIR = fileURLToPath(new URL('../../node_modules/.cache/bench-native/', import.meta.url));
const MODEL_FILE = 'test-bench-llama.gguf';
/** Changed whenever the fixture writer's bytes change, so a cached file is made again. */
const FILE_FORMAT = 'k-quants-1';
const PROMPT = 'Once upon a time, in a quiet town by the sea, there lived';
const LONG_WORDS = 'the harbour lantern quiet morning sailor map island rope gull tide story ';
/** The KV cache type the runtime loads the bench model with: every path gets the same. */
const KV_CACHE = GGUF_TEST_CATALOG.find((e) => e.id === BENCH_LLAMA_MODEL_ID)?.kv_cache;
const PAGE_KV = KV_CACHE ? { cache_type_k: KV_CACHE, cache_type_v: KV_CACHE, flash_attn: true } : {};


/** The bench GGUF, made once (deterministic; ~10 s) and kept in the cache. */
function ensureModel(): string {
  const file = path.join(CACHE_DIR, MODEL_FILE);
  const stamp = path.join(CACHE_DIR, `${MODEL_FILE}.params`);
  const params = `${benchGgufParameters()} ${QUANT} ${FILE_FORMAT}`;
  if (!fs.existsSync(file) || !fs.existsSync(stamp) || fs.readFileSync(stamp, 'utf8') !== params) {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    fs.writeFileSync(file, makeBenchGguf(QUANT));
    fs.writeFileSync(stamp, params);
  }
  return file;
}

/** node-llama-cpp, pinned, in its own directory (its own package.json: nothing reaches the project's). */
function ensureNative(): void {
  const installed = path.join(NATIVE_DIR, 'node_modules', 'node-llama-cpp', 'package.json');
  if (fs.existsSync(installed) && JSON.parse(fs.readFileSync(installed, 'utf8')).version === NATIVE_VERSION) return;
  fs.mkdirSync(NATIVE_DIR, { recursive: true });
  fs.writeFileSync(path.join(NATIVE_DIR, 'package.json'), JSON.stringify({ name: 'bench-native', private: true }));
  // On Linux x64 only the CPU binary: its optional CUDA/Vulkan builds are large and unused here.
  const linuxX64 = process.platform === 'linux' && process.arch === 'x64';
  const packages = [`node-llama-cpp@${NATIVE_VERSION}`, ...(linuxX64 ? [`@node-llama-cpp/linux-x64@${NATIVE_VERSION}`] : [])];
  console.log(`installing ${packages.join(' ')} into ${NATIVE_DIR} (bench only)…`);
  execFileSync('npm', ['install', '--prefix', NATIVE_DIR, '-E', '--no-audit', '--no-fund', ...(linuxX64 ? ['--omit=optional'] : []), ...packages], {
    stdio: 'inherit',
    // Never build llama.cpp from source (no toolchain or network for it): the prebuilt binary or nothing.
    env: { ...process.env, NODE_LLAMA_CPP_SKIP_DOWNLOAD: 'true' },
  });
}

interface NativeRun {
  tokens: number;
  firstTokenMs: number;
  decodeTokensPerSecond: number;
}

function runNative(modelPath: string, threads: number[]): Promise<Record<string, NativeRun[]>> {
  const script = fileURLToPath(new URL('./native-llama.mjs', import.meta.url));
  // The long prompt: as many characters as the turns' history has tokens (one token per character).
  const long = HISTORY_TOKENS > 0 ? { longPrompt: LONG_WORDS.repeat(Math.ceil(HISTORY_TOKENS / LONG_WORDS.length)).slice(0, HISTORY_TOKENS), longTokens: TURN_TOKENS } : {};
  const job = JSON.stringify({ threads, rounds: ROUNDS, tokens: TOKENS, nCtx: BENCH_LLAMA.contextLength, prompt: PROMPT, kvCache: KV_CACHE?.toUpperCase(), ...long });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, NATIVE_DIR, modelPath, job], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!)) : reject(new Error(`native-llama.mjs exited with ${code}`))));
  });
}

let browser: Browser;
let app: Served;
let mirror: ModelMirror;
let page: Page;
let modelPath: string;
beforeAll(async () => {
  modelPath = ensureModel();
  ensureNative();
  [browser, app, mirror] = await Promise.all([
    chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS }),
    serveDist(),
    serveModelMirror(CACHE_DIR),
  ]);
  const context = await browser.newContext();
  await configureRuntime(context, app.origin, { modelBase: mirror.base, ...(OURS_THREADS ? { options: { cpu: { threads: OURS_THREADS } } } : {}) });
  page = await openBenchPage(context, app.origin, `?model-base=${encodeURIComponent(mirror.base)}`);
}, 10 * 60_000);
afterAll(async () => {
  await Promise.all([browser?.close(), app?.close(), mirror?.close()]);
});

type PathName = 'ours' | 'wllama ×1' | `wllama ×${number}`;

test('CPU engine vs native llama.cpp', { timeout: 60 * 60_000 }, async () => {
  const loadBefore = os.loadavg()[0]!;
  const url = `${mirror.base}${MODEL_FILE}`;
  // Warm-up: the runtime downloads the model (into OPFS, where the page's wllama finds it) and loads it.
  await runApiDecode(page, BENCH_LLAMA_MODEL_ID, `warm-up ${PROMPT}`, 16);
  const sab = await page.evaluate(() => typeof SharedArrayBuffer !== 'undefined');
  await loadPageWllama(page, 'single', url, 1, BENCH_LLAMA.contextLength, PAGE_KV);
  const threaded = sab && THREADS > 1;
  if (threaded) await loadPageWllama(page, 'threaded', url, THREADS, BENCH_LLAMA.contextLength, PAGE_KV);
  const paths: PathName[] = ['ours', 'wllama ×1', ...(threaded ? [`wllama ×${THREADS}` as const] : [])];
  const runs = new Map<PathName, DecodeTiming[]>(paths.map((p) => [p, []]));
  for (let round = -1; round < ROUNDS; round++) {
    const order = paths.map((_, i) => paths[(i + round + 1) % paths.length]!);
    for (const p of order) {
      const prompt = `${round + 1} ${PROMPT}`;
      const timing =
        p === 'ours' ? await runApiDecode(page, BENCH_LLAMA_MODEL_ID, prompt, TOKENS) : await runPageDecode(page, p === 'wllama ×1' ? 'single' : 'threaded', prompt, TOKENS);
      if (round >= 0) runs.get(p)!.push(timing);
    }
  }
  const turns = HISTORY_TOKENS > 0 ? await runTurns(page, BENCH_LLAMA_MODEL_ID, HISTORY_TOKENS, ROUNDS, TURN_TOKENS) : [];
  // Native last, with the browser idle (its model instances hold memory, not CPU).
  const native = await runNative(modelPath, [...new Set([1, THREADS])]);

  const rows: Array<Record<string, string | number>> = [];
  const tps = new Map<string, number>();
  const add = (name: string, threads: number | string, timings: Array<{ decodeTokensPerSecond: number; firstTokenMs: number; tokens: number }>) => {
    const decode = median(timings.map((t) => t.decodeTokensPerSecond));
    tps.set(name, decode);
    rows.push({ path: name, threads, 'tokens/run': timings[0]!.tokens, 'decode tokens/s': decode.toFixed(2), 'first token ms': median(timings.map((t) => t.firstTokenMs)).toFixed(0) });
  };
  // What wllama reports for the model the runtime loaded (all cores when isolated, else 1).
  const oursThreads = await page.evaluate(async () => ((await (await fetch('/v1/local/status')).json()) as { cpu: { threads?: number } }).cpu.threads ?? 1);
  add('ours', oursThreads, runs.get('ours')!);
  add('wllama ×1', 1, runs.get('wllama ×1')!);
  if (threaded) add(`wllama ×${THREADS}`, THREADS, runs.get(`wllama ×${THREADS}`)!);
  for (const [threads, timings] of Object.entries(native)) if (!threads.endsWith(' long')) add(`native ×${threads}`, Number(threads), timings);

  const cores = os.cpus().length;
  const loadAfter = os.loadavg()[0]!;
  console.log(`\nCPU engine benchmark: ${BENCH_LLAMA_MODEL_ID}, ${(benchGgufParameters() / 1e6).toFixed(1)}M parameters, ${QUANT.toUpperCase()}, ${(fs.statSync(modelPath).size / 1e6).toFixed(0)} MB`);
  console.log(`${ROUNDS} rounds (+1 warm-up), ${TOKENS} tokens, temperature 0; N = ${THREADS} threads; KV cache ${KV_CACHE ?? 'f16'} on every path`);
  console.log(`machine: ${cores} cores, load average ${loadBefore.toFixed(1)} before / ${loadAfter.toFixed(1)} after` +
    (Math.max(loadBefore, loadAfter) > cores ? ' — busy: other processes compete with these runs, threaded figures suffer most' : '') + '\n');
  console.table(rows);
  if (turns.length) console.table(turns.map((t, i) => ({ round: i + 1, 'turn 1 input': t.turn1.inputTokens, 'turn 1 cached': t.turn1.cachedTokens, 'turn 1 TTFT ms': t.turn1.firstTokenMs.toFixed(0), 'turn 2 input': t.turn2.inputTokens, 'turn 2 cached': t.turn2.cachedTokens, 'turn 2 TTFT ms': t.turn2.firstTokenMs.toFixed(0) })));

  const check = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const ratio = (a: string, b: string) => (tps.has(a) && tps.has(b) ? tps.get(a)! / tps.get(b)! : NaN);
  const threadedRatio = ratio(`wllama ×${THREADS}`, 'wllama ×1');
  console.log(`threaded ÷ single-threaded decode (wllama ×${THREADS} ÷ ×1) ≥ 1.6: ${threaded ? `${threadedRatio.toFixed(2)} → ${check(threadedRatio >= 1.6)}` : 'not measured (no SharedArrayBuffer or 1 core)'}`);
  const oursNative = ratio('ours', `native ×${oursThreads}`);
  console.log(`ours ÷ native decode, same threads (${oursThreads}) ≥ 0.5: ${Number.isNaN(oursNative) ? 'native not run with that count' : `${oursNative.toFixed(2)} → ${check(oursNative >= 0.5)}`}`);
  if (threaded) console.log(`  wllama ×${THREADS} ÷ native ×${THREADS}: ${ratio(`wllama ×${THREADS}`, `native ×${THREADS}`).toFixed(2)}`);
  console.log(`  wllama ×1 ÷ native ×1: ${ratio('wllama ×1', 'native ×1').toFixed(2)}; ours ÷ wllama ×1: ${ratio('ours', 'wllama ×1').toFixed(2)}`);
  if (turns.length) {
    // Decoding on top of a long context, where attention reads the whole KV cache every token.
    const oursLong = median(turns.map((t) => t.turn1.decodeTokensPerSecond));
    const nativeLong = native[`${oursThreads} long`];
    const nativeLongTps = nativeLong ? median(nativeLong.map((t) => t.decodeTokensPerSecond)) : NaN;
    console.log(`decode after ~${HISTORY_TOKENS} tokens of context (${TURN_TOKENS} tokens; ours: turn 1): ours ${oursLong.toFixed(1)}, native ×${oursThreads} ${nativeLongTps.toFixed(1)} tokens/s → ${(oursLong / nativeLongTps).toFixed(2)}`);
  }
  const ttft = median(turns.map((t) => t.turn2.firstTokenMs / t.turn1.firstTokenMs));
  if (turns.length) console.log(`turn-2 ÷ turn-1 time to first token, ~${HISTORY_TOKENS}-token history ≤ 0.25: ${ttft.toFixed(3)} → ${check(ttft <= 0.25)}\n`);
});
