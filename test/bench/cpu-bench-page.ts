/**
 * What `cpu-bench.ts` runs in the bench page: wllama loaded in the page (the chunk the
 * runtime imports) with a given thread count, decode runs on it and on `/v1/responses`,
 * and the two-turn time-to-first-token runs. Every timing is taken in the page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const DIST_ASSETS = fileURLToPath(new URL('../../dist/assets', import.meta.url));

export interface DecodeTiming {
  tokens: number;
  firstTokenMs: number;
  decodeTokensPerSecond: number;
}

export interface TurnTiming {
  inputTokens: number;
  cachedTokens: number;
  firstTokenMs: number;
  /** Decode speed of this turn's answer, on top of its whole context. */
  decodeTokensPerSecond: number;
}

interface PageWllama {
  createCompletion(params: Record<string, unknown>): Promise<AsyncIterable<{ choices: Array<{ text: string }> }>>;
}

declare global {
  interface Window {
    /** Bench only: wllama instances loaded in the page, by name. */
    cpuBenchWllama?: Record<string, PageWllama>;
  }
}

/**
 * The built wllama chunk (the one the runtime imports) and wasm, as same-origin paths. The
 * chunk sits under `assets/deferred/` (fetched after "Ready", vite.config.ts), the wasm
 * beside the page's assets; both folders are searched.
 */
function wllamaAssets(): { chunk: string; wasm: string } {
  const files = ['', 'deferred/'].flatMap((dir) =>
    fs.existsSync(path.join(DIST_ASSETS, dir)) ? fs.readdirSync(path.join(DIST_ASSETS, dir)).map((f) => `${dir}${f}`) : [],
  );
  const wasm = files.find((f) => /(^|\/)wllama-.*\.wasm$/.test(f));
  const chunk = files.find((f) => f.endsWith('.js') && /as Wllama\}/.test(fs.readFileSync(path.join(DIST_ASSETS, f), 'utf8')));
  if (!wasm || !chunk) throw new Error(`No wllama chunk/wasm in ${DIST_ASSETS}: run \`LOCAL_RESPONSES_BENCH=1 vite build\` first (npm run bench:cpu does).`);
  return { chunk: `/assets/${chunk}`, wasm: `/assets/${wasm}` };
}

/**
 * Loads `url` into a wllama of the page's own, with `threads` threads, as `name`; `extra`
 * goes into its load parameters (the KV cache settings the runtime loads the model with).
 */
export function loadPageWllama(page: Page, name: string, url: string, threads: number, nCtx: number, extra: Record<string, unknown> = {}): Promise<void> {
  return page.evaluate(
    async ({ assets, name, url, threads, nCtx, extra }) => {
      // Built with `Function`: Vitest rewrites an `import()` written here for Node, and this runs in the page.
      const importModule = new Function('url', 'return import(url)') as (url: string) => Promise<unknown>;
      const { Wllama } = (await importModule(assets.chunk)) as {
        Wllama: new (paths: { default: string }, config: Record<string, unknown>) => PageWllama & {
          setCompat(compat: null): void;
          loadModelFromUrl(url: string, params: Record<string, unknown>): Promise<void>;
        };
      };
      const noop = () => {};
      const wllama = new Wllama({ default: new URL(assets.wasm, location.href).href }, { suppressNativeLog: true, logger: { debug: noop, log: noop, warn: noop, error: console.error } });
      wllama.setCompat(null);
      await wllama.loadModelFromUrl(url, { n_ctx: nCtx, n_gpu_layers: 0, n_threads: threads, ...extra });
      window.cpuBenchWllama = { ...window.cpuBenchWllama, [name]: wllama };
    },
    { assets: wllamaAssets(), name, url, threads, nCtx, extra },
  );
}

/** Greedy decode of `tokens` tokens on the page's wllama `name`, timed per token chunk. */
export function runPageDecode(page: Page, name: string, prompt: string, tokens: number): Promise<DecodeTiming> {
  return page.evaluate(
    async ({ name, prompt, tokens }) => {
      const wllama = window.cpuBenchWllama![name]!;
      const t0 = performance.now();
      const stream = await wllama.createCompletion({ prompt, stream: true, max_tokens: tokens, temperature: 0, cache_prompt: true });
      const at: number[] = [];
      for await (const chunk of stream) if (chunk.choices[0]?.text) at.push(performance.now());
      return { tokens: at.length, firstTokenMs: at[0]! - t0, decodeTokensPerSecond: (at.length - 1) / ((at.at(-1)! - at[0]!) / 1000) };
    },
    { name, prompt, tokens },
  );
}

/** The same decode through `/v1/responses` (the SDK, streamed); tokens from `usage`. */
export function runApiDecode(page: Page, model: string, prompt: string, tokens: number): Promise<DecodeTiming> {
  return page.evaluate(
    async ({ model, prompt, tokens }) => {
      const t0 = performance.now();
      const stream = await window.sdk!.responses.create({ model, input: prompt, temperature: 0, max_output_tokens: tokens, stream: true });
      let first = -1;
      let last = -1;
      let count = 0;
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta') {
          last = performance.now();
          if (first < 0) first = last;
        }
        if (event.type === 'response.completed' || event.type === 'response.incomplete') count = event.response.usage?.output_tokens ?? 0;
        if (event.type === 'response.failed') throw new Error(event.response.error?.message ?? 'response.failed');
      }
      // The last delta carries the last token (the model never emits EOS: the run ends at max_output_tokens).
      return { tokens: count, firstTokenMs: first - t0, decodeTokensPerSecond: (count - 1) / ((last - first) / 1000) };
    },
    { model, prompt, tokens },
  );
}

/**
 * `rounds` conversations: turn 1 sends a history of ~`historyTokens` tokens (user and
 * assistant messages, a new text each round so nothing of it is cached) and a question;
 * turn 2 answers it with `previous_response_id` and a short message. Time to first token
 * and usage of each.
 */
export function runTurns(page: Page, model: string, historyTokens: number, rounds: number, answerTokens: number): Promise<Array<{ turn1: TurnTiming; turn2: TurnTiming }>> {
  return page.evaluate(
    async ({ model, historyTokens, rounds, answerTokens }) => {
      const words = ['the', 'harbour', 'lantern', 'quiet', 'morning', 'sailor', 'map', 'island', 'rope', 'gull', 'tide', 'story'];
      // The test vocabulary is one token per character (and one per space): ~95 characters a message plus its ChatML markup.
      const messages = Math.max(2, Math.round(historyTokens / 100));
      const text = (seed: number) => {
        let s = '';
        for (let i = 0; s.length < 95; i++) s += `${words[(seed * 7 + i * 5) % words.length]} `;
        return s.trim();
      };
      type Input = Array<{ role: 'user' | 'assistant'; content: string }> | string;
      const timed = async (input: Input, previous?: string) => {
        const t0 = performance.now();
        const stream = await window.sdk!.responses.create({
          model,
          input,
          temperature: 0,
          max_output_tokens: answerTokens,
          stream: true,
          ...(previous ? { previous_response_id: previous } : {}),
        });
        let first = -1;
        let last = -1;
        let id = '';
        let inputTokens = 0;
        let cachedTokens = 0;
        let outputTokens = 0;
        for await (const event of stream) {
          if (event.type === 'response.output_text.delta') {
            last = performance.now() - t0;
            if (first < 0) first = last;
          }
          if (event.type === 'response.completed' || event.type === 'response.incomplete') {
            id = event.response.id;
            inputTokens = event.response.usage?.input_tokens ?? 0;
            cachedTokens = event.response.usage?.input_tokens_details.cached_tokens ?? 0;
            outputTokens = event.response.usage?.output_tokens ?? 0;
          }
          if (event.type === 'response.failed') throw new Error(event.response.error?.message ?? 'response.failed');
        }
        return { id, timing: { inputTokens, cachedTokens, firstTokenMs: first, decodeTokensPerSecond: (outputTokens - 1) / ((last - first) / 1000) } };
      };
      const out = [];
      for (let round = 0; round < rounds; round++) {
        const history = Array.from({ length: messages }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: `${round}.${i} ${text(round * 31 + i)}` }));
        const turn1 = await timed([...history, { role: 'user', content: 'What happened next?' }]);
        const turn2 = await timed('And then?', turn1.id);
        out.push({ turn1: turn1.timing, turn2: turn2.timing });
      }
      return out;
    },
    { model, historyTokens, rounds, answerTokens },
  );
}
