/**
 * `npm run bench:upstream`: a remote provider's answer through this runtime against the same
 * upstream called directly, side by side in one page, against one real llama.cpp
 * `llama-server` (test/support/llama-server.ts), one run of each path per round in
 * alternating order; medians, and ratios as medians of per-round ratios.
 *
 * Paths (same server, same prompt, greedy, `max_tokens` N):
 *   direct   the page streams the upstream's `/v1/chat/completions` itself (fetch, SSE read
 *            and JSON-parsed per chunk: the least a page can do)
 *   ours     the `openai` SDK in the page, `responses.create({ stream: true })` → service
 *            worker → runtime worker → remote engine → the same upstream, events back
 * decode tokens/s = (output tokens − 1) / (last text − first text); time to first token =
 * from the call to the first text. Targets (the issue's): decode ratio ≥ 0.95, time to
 * first token overhead ≤ 20 ms (median of per-round differences).
 *
 * Then the cost of history: `previous_response_id` chains of 50 turns (16 tokens each; three
 * chains, the median per turn), each turn timed from the page's call to the upstream
 * receiving the request (a recording proxy in front of the server, which knows each turn by a
 * marker in its message; turn 1 against turns 46–50). Target: ≤ 10 ms more per turn than the first.
 *
 * Model: stories260K (`LLAMA_SERVER_MODEL` or ../shared/models) with ChatML and `Once upon a
 * time`; else the generated tiny llama under a raw template, `Count: 7` (it counts on).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, test } from 'vitest';
import { openApp, startE2E } from '../support/browser';
import { LLAMA_SERVER, LLAMA_SERVER_MISSING, startLlamaServer, upstreamModelFile, type LlamaServer } from '../support/llama-server';
import { median } from './median';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 1000);
const TURNS = 50;
const CHAINS = Number(process.env.BENCH_CHAINS ?? 3);

let e2e: Awaited<ReturnType<typeof startE2E>>;
let llama: LlamaServer;
let proxy: { baseUrl: string; arrivals: Map<string, number>; close(): Promise<void> };
let page: Page;
let prompt: string;

/** Forwards to `target`, noting when each POST arrived (ms, wall clock) by the marker in its last message (`[c.t]`). */
async function recordingProxy(target: string): Promise<typeof proxy> {
  const arrivals = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const marker = /\[(\d+\.\d+)\][^[]*$/.exec(body.toString())?.[1];
      if (req.method === 'POST' && marker) arrivals.set(marker, at);
      const upstream = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, arrivals, close: () => new Promise((r) => server.close(() => r())) };
}

beforeAll(async () => {
  if (!LLAMA_SERVER) return;
  const model = upstreamModelFile();
  prompt = model.name === 'stories260K' ? 'Once upon a time' : 'Count: 7';
  let template: string | undefined;
  if (model.name !== 'stories260K') {
    template = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-template-')), 'raw.jinja');
    fs.writeFileSync(template, '{% for m in messages %}{{ m.content }}{% endfor %}');
  }
  [e2e, llama] = await Promise.all([startE2E(), startLlamaServer({ model, slots: 2, ...(template ? { chatTemplateFile: template } : {}) })]);
  proxy = await recordingProxy(llama.baseUrl.replace(/\/v1$/, ''));
  page = await openApp(await e2e.browser.newContext(), e2e.app.origin);
  await page.evaluate(
    async ({ direct, timed }) => {
      for (const body of [
        { id: 'bench', base_url: direct },
        { id: 'timed', base_url: timed },
      ])
        await fetch('/v1/local/providers', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    },
    { direct: llama.baseUrl, timed: proxy.baseUrl },
  );
}, 120_000);

afterAll(async () => {
  await Promise.all([e2e?.close(), llama?.close(), proxy?.close()]);
});

interface Run {
  tokens: number;
  ttftMs: number;
  firstMs: number;
  lastMs: number;
  text: string;
}

function runDirect(): Promise<Run> {
  return page.evaluate(
    async ({ baseUrl, model, prompt, tokens }) => {
      const t0 = performance.now();
      let first = -1;
      let last = -1;
      let text = '';
      let usage = 0;
      const response = await fetch(`${baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: prompt }], max_tokens: tokens, temperature: 0, stream: true, stream_options: { include_usage: true } }),
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const line = buffer.slice(0, end).replace(/^data: /, '');
          buffer = buffer.slice(end + 2);
          if (line === '[DONE]') continue;
          const chunk = JSON.parse(line) as { choices: Array<{ delta: { content?: string } }>; usage?: { completion_tokens: number } };
          const piece = chunk.choices[0]?.delta.content;
          if (piece) {
            const now = performance.now();
            if (first < 0) first = now;
            last = now;
            text += piece;
          }
          if (chunk.usage) usage = chunk.usage.completion_tokens;
        }
      }
      return { tokens: usage, ttftMs: first - t0, firstMs: first, lastMs: last, text };
    },
    { baseUrl: llama.baseUrl, model: llama.model, prompt, tokens: TOKENS },
  );
}

function runOurs(): Promise<Run> {
  return page.evaluate(
    async ({ model, prompt, tokens }) => {
      const t0 = performance.now();
      let first = -1;
      let last = -1;
      let text = '';
      let usage = 0;
      const stream = await window.sdk!.responses.create({ model, input: prompt, max_output_tokens: tokens, temperature: 0, stream: true, store: false });
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta') {
          const now = performance.now();
          if (first < 0) first = now;
          last = now;
          text += event.delta;
        }
        if (event.type === 'response.completed' || event.type === 'response.incomplete') usage = event.response.usage?.output_tokens ?? 0;
      }
      return { tokens: usage, ttftMs: first - t0, firstMs: first, lastMs: last, text };
    },
    { model: `bench/${llama.model}`, prompt, tokens: TOKENS },
  );
}

const decodeRate = (run: Run) => ((run.tokens - 1) * 1000) / (run.lastMs - run.firstMs);

test.skipIf(!LLAMA_SERVER)('decode speed and time to first token: ours vs the upstream called directly', async () => {
  // Warm-up: the prompt is in the server's cache for both paths from here on.
  const [warmDirect, warmOurs] = [await runDirect(), await runOurs()];
  if (warmDirect.text !== warmOurs.text) throw new Error(`The two paths answered differently:\n${warmDirect.text.slice(0, 200)}\n${warmOurs.text.slice(0, 200)}`);
  const direct: Run[] = [];
  const ours: Run[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      direct.push(await runDirect());
      ours.push(await runOurs());
    } else {
      ours.push(await runOurs());
      direct.push(await runDirect());
    }
  }
  const ratio = median(ours.map((o, i) => decodeRate(o) / decodeRate(direct[i]!)));
  const ttftOverhead = median(ours.map((o, i) => o.ttftMs - direct[i]!.ttftMs));
  console.log(`\nbench:upstream — llama-server (${llama.modelName}), ${TOKENS} tokens asked, ${ROUNDS} rounds, medians`);
  console.table({
    direct: { 'output tokens': median(direct.map((r) => r.tokens)), 'decode tok/s': Math.round(median(direct.map(decodeRate))), 'first token ms': +median(direct.map((r) => r.ttftMs)).toFixed(1) },
    ours: { 'output tokens': median(ours.map((r) => r.tokens)), 'decode tok/s': Math.round(median(ours.map(decodeRate))), 'first token ms': +median(ours.map((r) => r.ttftMs)).toFixed(1) },
  });
  console.log(`decode ratio ours/direct: ${ratio.toFixed(3)} (target ≥ 0.95); first-token overhead: ${ttftOverhead.toFixed(1)} ms (target ≤ 20 ms)`);
}, 600_000);

test.skipIf(!LLAMA_SERVER)(`a previous_response_id chain of ${TURNS} turns: time until the upstream request is sent`, async () => {
  // The provider's model list is read once, before turn 1 (a first use would read it then).
  await page.evaluate(() => window.sdk!.models.list());
  const chains: number[][] = [];
  for (let chain = 0; chain < CHAINS; chain++) {
    const sent = await page.evaluate(
      async ({ model, turns, chain }) => {
        const times: number[] = [];
        let previous: string | undefined;
        for (let turn = 0; turn < turns; turn++) {
          times.push(Date.now());
          const response = await window.sdk!.responses.create({ model, input: `Go on. [${chain}.${turn}]`, max_output_tokens: 16, temperature: 0, ...(previous ? { previous_response_id: previous } : {}) });
          previous = response.id;
        }
        return times;
      },
      { model: `timed/${llama.model}`, turns: TURNS, chain },
    );
    chains.push(sent.map((t, turn) => (proxy.arrivals.get(`${chain}.${turn}`) ?? NaN) - t));
  }
  // Per turn, the median over the chains: one busy moment of the machine does not make a turn.
  const latency = chains[0]!.map((_, turn) => median(chains.map((c) => c[turn]!)));
  const first = latency[0]!;
  const early = median(latency.slice(1, 6));
  const late = median(latency.slice(-5));
  console.log(`\nbench:upstream — ${TURNS}-turn previous_response_id chains (${CHAINS}), call → upstream request (ms, Date.now() in the page and the proxy)`);
  console.table({ 'turn 1': { ms: +first.toFixed(1) }, 'turns 2–6 (median)': { ms: +early.toFixed(1) }, [`turns ${TURNS - 4}–${TURNS} (median)`]: { ms: +late.toFixed(1) } });
  console.log(`added by ${TURNS} turns of history: ${(late - first).toFixed(1)} ms over turn 1, ${(late - early).toFixed(1)} ms over turns 2–6 (target ≤ 10 ms)`);
}, 600_000);

if (!LLAMA_SERVER) console.warn(`[bench:upstream] skipped: ${LLAMA_SERVER_MISSING}`);
