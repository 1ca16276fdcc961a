/**
 * Real inference on the CPU: the wllama engine (llama.cpp in WebAssembly) behind
 * `/v1/responses`, driven by the `openai` SDK in the page, with GGUF files from a model
 * mirror on another 127.0.0.1 port (CORS, as Hugging Face answers; the stored model-base setting).
 *
 * Models:
 * - `test-tiny-llama`: generated here (`test/fixtures/make-tiny-gguf.ts`): random weights
 *   with a designed greedy behaviour — `Count: 7` counts on forever (`890123…`), any other
 *   prompt gets " The quick brown fox jumps over the lazy dog." and EOS.
 * - `test-stories260k`: `../shared/models/stories260K.gguf`, a real 260K-parameter model
 *   trained on TinyStories, when the file exists (it is not in the repo); otherwise its
 *   suite is skipped and says why.
 *
 * Both run the same suite: streaming, background + retrieve, cancel mid-generation,
 * `max_output_tokens` → `incomplete`, identical output on a rerun (temperature 0 is greedy).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TINY_GGUF_REPLY, makeTinyGguf, tinyGgufCount } from '../fixtures/make-tiny-gguf';
import { HAVE_STORIES, STORIES_ABSENT, STORIES_CONTINUATION, STORIES_PATH } from '../fixtures/stories260k';
import { configureRuntime, openApp, serveModelMirror, startE2E, type ModelMirror, type RuntimeSettings } from '../support/browser';
import type { LocalStatus } from '../../src/protocol/local-status';

if (!HAVE_STORIES) console.warn(`[wllama e2e] test-stories260k suite skipped: ${STORIES_ABSENT}.`);

interface ModelCase {
  model: string;
  skip: boolean;
  /** A prompt the model answers with `reply` within `replyTokens` tokens (its whole output, or the first tokens). */
  prompt: string;
  reply: string;
  replyTokens: number;
  /** A prompt the model continues for far longer than a test waits (cancel). */
  longPrompt: string;
  /** Whether `out` is how the model starts its answer to `prompt` (a prefix of its greedy output). */
  startsReply(out: string): boolean;
}

const CASES: ModelCase[] = [
  {
    model: 'test-tiny-llama',
    skip: false,
    prompt: 'Hello',
    reply: TINY_GGUF_REPLY,
    replyTokens: 64, // it stops by itself (EOS) after 9 words
    longPrompt: 'Count: 1',
    startsReply: (out) => TINY_GGUF_REPLY.startsWith(out),
  },
  {
    model: 'test-stories260k',
    skip: !HAVE_STORIES,
    prompt: 'Once upon a time',
    reply: STORIES_CONTINUATION,
    replyTokens: 30,
    longPrompt: 'Once upon a time',
    // The known continuation is 30 tokens long; a longer output must start with it.
    startsReply: (out) => STORIES_CONTINUATION.startsWith(out) || out.startsWith(STORIES_CONTINUATION),
  },
];

let e2e: Awaited<ReturnType<typeof startE2E>>;
let mirror: ModelMirror;
let mirrorDir: string;
let page: Page;

/** A fresh profile whose runtime downloads GGUF files from `base`. */
async function openWithMirror(base: string, options?: RuntimeSettings['options']) {
  const context = await e2e.browser.newContext();
  await configureRuntime(context, e2e.app.origin, { modelBase: base, ...(options ? { options } : {}) });
  return openApp(context, e2e.app.origin);
}

beforeAll(async () => {
  mirrorDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gguf-mirror-'));
  fs.writeFileSync(path.join(mirrorDir, 'test-tiny-llama.gguf'), makeTinyGguf());
  // The same model under a ChatML catalog entry (`test-tiny-chat`): its prompt shows every turn.
  fs.writeFileSync(path.join(mirrorDir, 'test-tiny-chat.gguf'), makeTinyGguf());
  if (HAVE_STORIES) fs.copyFileSync(STORIES_PATH, path.join(mirrorDir, 'stories260K.gguf'));
  // The same model carrying its own chat template, whose rendering ends in a digit: the
  // tiny model then counts instead of answering with its sentence, so the output shows
  // which template rendered the prompt.
  fs.mkdirSync(path.join(mirrorDir, 'templated'));
  fs.writeFileSync(
    path.join(mirrorDir, 'templated', 'test-tiny-llama.gguf'),
    makeTinyGguf({ chatTemplate: '{% for m in messages %}{{ m.content }}{% endfor %}{% if add_generation_prompt %} Count: 7{% endif %}' }),
  );
  [e2e, mirror] = await Promise.all([startE2E(), serveModelMirror(mirrorDir)]);
  page = await openWithMirror(mirror.base);
});
afterAll(async () => {
  await Promise.all([e2e?.close(), mirror?.close()]);
  if (mirrorDir) fs.rmSync(mirrorDir, { recursive: true, force: true });
});

test('/v1/models: the GGUF models are served by wllama and recommended on this GPU-less browser', async () => {
  const models = await page.evaluate(async () => (await window.sdk!.models.list()).data);
  const byId = new Map(models.map((m) => [m.id, m as typeof m & { engine: string; recommended: boolean; hidden: boolean }]));
  expect(byId.get('test-tiny-llama')).toMatchObject({ engine: 'wllama', recommended: true, hidden: true });
  expect(byId.get('test-stories260k')).toMatchObject({ engine: 'wllama', recommended: true, hidden: true });
  expect(byId.get('Qwen3-0.6B-Q4_K_M-GGUF')).toMatchObject({ engine: 'wllama', recommended: true, hidden: false });
  // Without --enable-unsafe-webgpu Chromium has no adapter: web-llm's models stay listed (a
  // person may still choose one) but are not recommended.
  const webllm = [...byId.values()].filter((m) => m.engine === 'web-llm');
  for (const m of webllm) expect(m.recommended, m.id).toBe(false);
  expect(byId.get('test-scripted')?.recommended).toBe(false);
});

for (const c of CASES) {
  // A skipped suite says why in its name (and in the warning above).
  describe.skipIf(c.skip)(c.skip ? `${c.model} — skipped: ${STORIES_PATH} is absent` : c.model, () => {
    const base = { model: c.model, temperature: 0 };

    test('streaming: the deltas arrive as generated and add up to the greedy output', async () => {
      const result = await page.evaluate(
        async ({ base, prompt, max }) => {
          const stream = await window.sdk!.responses.create({ ...base, input: prompt, max_output_tokens: max, stream: true });
          const deltas: { text: string; at: number }[] = [];
          const types: string[] = [];
          let usage: { output_tokens: number } | undefined;
          for await (const event of stream) {
            types.push(event.type);
            if (event.type === 'response.output_text.delta') deltas.push({ text: event.delta, at: performance.now() });
            if (event.type === 'response.completed' || event.type === 'response.incomplete') usage = event.response.usage ?? undefined;
          }
          return { deltas, types, usage };
        },
        { base, prompt: c.prompt, max: c.replyTokens },
      );
      expect(result.deltas.map((d) => d.text).join('')).toBe(c.reply);
      expect(result.types[0]).toBe('response.created');
      expect(['response.completed', 'response.incomplete']).toContain(result.types.at(-1));
      // Streamed as generated, not in one piece; these models decode ~1,000 tokens/s, so the
      // tokens of each 16 ms share an event (REAL_ENGINE_DELTA_WINDOW_MS), the first one alone.
      expect(result.deltas.length).toBeGreaterThanOrEqual(2);
      expect(result.deltas[0]!.text.length).toBeLessThan(c.reply.length / 2);
      expect(result.deltas.length).toBeLessThanOrEqual(result.usage!.output_tokens);
      expect(result.deltas.at(-1)!.at).toBeGreaterThan(result.deltas[0]!.at);
    });

    test('background: retrieve while it runs, then the completed response', async () => {
      const result = await page.evaluate(
        async ({ base, prompt, max }) => {
          const sdk = window.sdk!;
          const created = await sdk.responses.create({ ...base, input: prompt, max_output_tokens: max, background: true });
          const seen = [created.status];
          for (let i = 0; i < 400; i++) {
            const r = await sdk.responses.retrieve(created.id);
            seen.push(r.status);
            if (r.status !== 'queued' && r.status !== 'in_progress') return { seen, status: r.status, text: r.output_text, background: r.background };
            await new Promise((resolve) => setTimeout(resolve, 25));
          }
          return { seen, status: 'timed out', text: '', background: null };
        },
        { base, prompt: c.prompt, max: c.replyTokens },
      );
      expect(['queued', 'in_progress']).toContain(result.seen[0]);
      expect(['completed', 'incomplete']).toContain(result.status);
      expect(result.background).toBe(true);
      expect(result.text).toBe(c.reply);
    });

    test('cancel mid-generation: the stream ends, the response stays cancelled with a partial output', async () => {
      const max = 1500;
      const result = await page.evaluate(
        async ({ base, prompt, max }) => {
          const sdk = window.sdk!;
          const stream = await sdk.responses.create({ ...base, input: prompt, max_output_tokens: max, background: true, stream: true });
          let id = '';
          let text = '';
          let deltas = 0;
          let cancelledStatus = '';
          const after: string[] = [];
          for await (const event of stream) {
            if (event.type === 'response.created') id = event.response.id;
            if (cancelledStatus) after.push(event.type);
            if (event.type !== 'response.output_text.delta') continue;
            text += event.delta;
            if (++deltas === 5) cancelledStatus = (await sdk.responses.cancel(id)).status ?? '';
          }
          const stored = await sdk.responses.retrieve(id);
          return { cancelledStatus, deltas, text, after, stored: { status: stored.status, text: stored.output_text } };
        },
        { base, prompt: c.longPrompt, max },
      );
      expect(result.cancelledStatus).toBe('cancelled');
      expect(result.stored.status).toBe('cancelled');
      // Stopped soon after the cancel (the tokens generated while it travelled to the
      // runtime still arrive): far from the 1500 tokens asked for.
      expect(result.deltas).toBeGreaterThanOrEqual(5);
      expect(result.deltas, `${result.deltas} deltas: ${JSON.stringify(result.text)}`).toBeLessThan(200);
      // What was streamed is what was stored.
      expect(result.stored.text).toBe(result.text);
      expect(result.after).not.toContain('response.completed');
      if (c.model === 'test-tiny-llama') expect(result.text).toBe(tinyGgufCount(1, result.text.length));
      else expect(c.startsReply(result.text), JSON.stringify(result.text)).toBe(true);
    });

    test('max_output_tokens: 16 → incomplete with exactly 16 output tokens', async () => {
      const prompt = c.model === 'test-tiny-llama' ? 'Count: 7' : c.prompt;
      const r = await page.evaluate(
        async ({ base, prompt }) => {
          const r = await window.sdk!.responses.create({ ...base, input: prompt, max_output_tokens: 16 });
          return { status: r.status, reason: r.incomplete_details?.reason, usage: r.usage, text: r.output_text };
        },
        { base, prompt },
      );
      expect(r.status).toBe('incomplete');
      expect(r.reason).toBe('max_output_tokens');
      expect(r.usage?.output_tokens).toBe(16);
      if (c.model === 'test-tiny-llama') expect(r.text).toBe(tinyGgufCount(7, 16));
      else expect(c.startsReply(r.text) && r.text.length > 0).toBe(true);
    });

    test('greedy output is identical on a rerun', async () => {
      const runs = await page.evaluate(
        async ({ base, prompt, max }) => {
          const sdk = window.sdk!;
          const out = [];
          for (let i = 0; i < 2; i++) {
            const r = await sdk.responses.create({ ...base, input: prompt, max_output_tokens: max });
            out.push({ text: r.output_text, tokens: r.usage?.output_tokens, status: r.status });
          }
          return out;
        },
        { base, prompt: c.prompt, max: c.replyTokens },
      );
      expect(runs[0]!.text).toBe(c.reply);
      expect(runs[1]).toEqual(runs[0]);
    });
  });
}

test('a response runs on every core: the page is cross-origin isolated and wllama reports more than one thread', async () => {
  const result = await page.evaluate(async () => {
    const r = await window.sdk!.responses.create({ model: 'test-tiny-llama', input: 'Hello', temperature: 0, max_output_tokens: 16 });
    const status = (await (await fetch('/v1/local/status')).json()) as LocalStatus;
    return { text: r.output_text, status, cores: navigator.hardwareConcurrency, isolated: crossOriginIsolated };
  });
  expect(result.text).toBe(TINY_GGUF_REPLY);
  expect(result.isolated).toBe(true);
  expect(result.status.loaded).toBe('test-tiny-llama');
  // What wllama says of the loaded model (getNumThreads: 1 had its thread pool not started).
  expect(result.cores).toBeGreaterThan(1);
  expect(result.status.cpu.threads).toBe(result.cores);
});

test("a previous_response_id turn reuses llama.cpp's KV cache: cached_tokens covers the turn before", async () => {
  const usage = await page.evaluate(async () => {
    const sdk = window.sdk!;
    const base = { model: 'test-tiny-chat', temperature: 0, max_output_tokens: 32 };
    const first = await sdk.responses.create({ ...base, input: 'Tell me something about foxes and dogs, please.' });
    const second = await sdk.responses.create({ ...base, input: 'And again?', previous_response_id: first.id });
    return { first: first.usage!, second: second.usage!, text: first.output_text };
  });
  expect(usage.text.trim()).toBe(TINY_GGUF_REPLY.trim());
  expect(usage.first.input_tokens_details.cached_tokens).toBeLessThan(usage.first.input_tokens / 2);
  // Turn 2's prompt starts with turn 1's: all of it comes from the cache, only the rest is prefilled.
  expect(usage.second.input_tokens).toBeGreaterThan(usage.first.input_tokens);
  expect(usage.second.input_tokens_details.cached_tokens).toBeGreaterThanOrEqual(usage.first.input_tokens);
});

test('logprobs: each output token with its logprob and top_logprobs alternatives, from llama.cpp', async () => {
  const part = await page.evaluate(async () => {
    const r = await window.sdk!.responses.create({
      model: 'test-tiny-llama',
      input: 'Hello',
      temperature: 0,
      top_logprobs: 3,
      include: ['message.output_text.logprobs'],
    });
    const message = r.output.find((item) => item.type === 'message');
    return message?.type === 'message' ? message.content[0] : undefined;
  });
  expect(part?.type).toBe('output_text');
  if (part?.type !== 'output_text') return;
  expect(part.text).toBe(TINY_GGUF_REPLY);
  const logprobs = part.logprobs!;
  // One entry per token of the text (the EOS token is not text), spelling it.
  expect(logprobs.map((l) => l.token).join('')).toBe(TINY_GGUF_REPLY);
  expect(logprobs).toHaveLength(9);
  for (const l of logprobs) {
    expect(l.logprob).toBeLessThanOrEqual(0);
    expect(l.bytes).toEqual([...new TextEncoder().encode(l.token)]);
    expect(l.top_logprobs).toHaveLength(3);
    // Greedy: the sampled token is the most likely one.
    expect(l.top_logprobs[0]).toEqual({ token: l.token, logprob: l.logprob, bytes: l.bytes });
  }
});

test("a GGUF with its own chat template is prompted through that template (Jinja), not our family template", async () => {
  const other = await openWithMirror(`${mirror.origin}/templated/`);
  try {
    const text = await other.evaluate(async () => {
      const r = await window.sdk!.responses.create({ model: 'test-tiny-llama', input: 'Hello', temperature: 0, max_output_tokens: 16 });
      return r.output_text;
    });
    // Our raw-completion template would show just "Hello" and get the fox sentence back.
    expect(text).toBe('8901234567890123');
  } finally {
    await other.context().close();
  }
});

test('a model file missing from the mirror fails with a message naming its URL', async () => {
  const emptyBase = `${mirror.origin}/nothing-here/`;
  const other = await openWithMirror(emptyBase);
  try {
    const result = await other.evaluate(async () => {
      try {
        const r = await window.sdk!.responses.create({ model: 'test-tiny-llama', input: 'Hello' });
        return { status: r.status, httpStatus: null, message: r.error?.message ?? '' };
      } catch (error) {
        const e = error as { status?: number; error?: { message?: string }; message?: string };
        return { status: 'thrown', httpStatus: e.status ?? null, message: e.error?.message ?? e.message ?? String(error) };
      }
    });
    // Either the create answers with an error status, or the response is stored `failed`.
    if (result.status === 'thrown') {
      expect(result.httpStatus).toBeGreaterThanOrEqual(400);
      expect(result.httpStatus).toBeLessThan(600);
    } else {
      expect(result.status).toBe('failed');
    }
    expect(result.message).toContain(`${emptyBase}test-tiny-llama.gguf`);
    expect(result.message).toMatch(/404/);
    expect(mirror.requests).toContain('HEAD /nothing-here/test-tiny-llama.gguf');
  } finally {
    await other.context().close();
  }
});

test('offline after the first visit: wllama.wasm from the precache, the GGUF from the cache', async () => {
  // The build emits wllama.wasm as a hashed asset, and the service worker precaches it.
  const wasm = fs.readdirSync(fileURLToPath(new URL('../../dist/assets', import.meta.url))).filter((f) => /^wllama-.*\.wasm$/.test(f));
  expect(wasm).toHaveLength(1);
  const precached = await page.evaluate(async () => {
    const urls = [];
    for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    return urls;
  });
  expect(precached).toContain(`/assets/${wasm[0]}`);
  // The model was loaded above, so its file is in wllama's cache (OPFS, keyed by URL).
  const context = page.context();
  await context.setOffline(true);
  try {
    await page.reload();
    await page.locator('[data-runtime-state="ready"]').waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => window.sdk !== undefined);
    const r = await page.evaluate(() =>
      window.sdk!.responses.create({ model: 'test-tiny-llama', input: 'Count: 3', temperature: 0, max_output_tokens: 16 }).then(
        (r) => ({ status: r.status, text: r.output_text, error: r.error?.message ?? null }),
        (e: unknown) => ({ status: 'thrown', text: '', error: String(e) }),
      ),
    );
    expect(r).toEqual({ status: 'incomplete', text: tinyGgufCount(3, 16), error: null });
  } finally {
    await context.setOffline(false);
  }
});

test('download ahead of use through /v1/local: progress, then downloaded and loaded; the answer needs no download; delete', async () => {
  // A fresh profile: nothing in wllama's cache yet. One thread, by the runtime option.
  const other = await openWithMirror(mirror.base, { cpu: { threads: 1 } });
  try {
    const status = () => other.evaluate(async () => (await (await fetch('/v1/local/status')).json()) as LocalStatus);
    const tiny = (s: LocalStatus) => s.models.find((m) => m.id === 'test-tiny-llama');
    expect(tiny(await status())).toEqual({ id: 'test-tiny-llama', variant: 'test-tiny-llama.gguf', cached: false, cachedVariants: [], loaded: false });
    // web-llm's models are listed next to the GGUF ones; Chromium's WebAssembly runs the CPU engine.
    expect((await status()).models.some((m) => m.id === 'Qwen3-0.6B-q4f16_1-MLC')).toBe(true);
    expect((await status()).cpu).toEqual({ usable: true, reason: null, threads: 1 });

    const events = await other.evaluate(async () => {
      const response = await fetch('/v1/local/models/test-tiny-llama/load', { method: 'POST' });
      const text = await response.text();
      return text
        .split('\n\n')
        .map((block) => block.split('\n').find((line) => line.startsWith('data: '))?.slice(6))
        .filter((data): data is string => !!data && data !== '[DONE]')
        .map((data) => JSON.parse(data) as { type: string; phase?: string; progress?: number; model?: string });
    });
    expect(events.at(-1)).toEqual({ type: 'ready', model: 'test-tiny-llama' });
    const progress = events.filter((e) => e.type === 'progress');
    expect(progress[0]).toMatchObject({ phase: 'download', model: 'test-tiny-llama' });
    expect(progress.at(-1)).toMatchObject({ phase: 'ready', progress: 1 });
    expect(tiny(await status())).toMatchObject({ cached: true, loaded: true, cachedVariants: ['test-tiny-llama.gguf'] });
    expect((await status()).loaded).toBe('test-tiny-llama');
    expect((await status()).cpu.threads).toBe(1); // as wllama reports it, loaded with the option

    const before = mirror.requests.length;
    const text = await other.evaluate(async () => (await window.sdk!.responses.create({ model: 'test-tiny-llama', input: 'Hello', temperature: 0 })).output_text);
    expect(text).toBe(TINY_GGUF_REPLY);
    expect(mirror.requests.slice(before)).toEqual([]);

    const deleted = await other.evaluate(async () => (await fetch('/v1/local/models/test-tiny-llama', { method: 'DELETE' })).json());
    expect(deleted).toEqual({ id: 'test-tiny-llama', object: 'model.cache.deleted', deleted: true });
    expect(tiny(await status())).toMatchObject({ cached: false, loaded: false, cachedVariants: [] });
    // The scripted test model has nothing to download.
    const scripted = await other.evaluate(async () => {
      const response = await fetch('/v1/local/models/test-scripted/load', { method: 'POST' });
      return response.text();
    });
    expect(scripted).toContain('model_not_found');
  } finally {
    await other.context().close();
  }
});

test('the model picker downloads a CPU model and deletes it again', async () => {
  const other = await openWithMirror(mirror.base);
  try {
    await other.locator('button.model-button').click();
    const dialog = other.getByRole('dialog', { name: 'Models' });
    const row = dialog.locator('li.model[data-model-id="test-tiny-llama"]');
    await row.waitFor();
    expect(await row.innerText()).toContain('Not downloaded');
    // The catalog's label, not the raw id; "Use" downloads a model that is not here yet.
    await row.getByRole('button', { name: 'Use Tiny random llama (test)', exact: true }).click();
    await row.getByText('Loaded', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await row.getByRole('alert').count()).toBe(0);
    await row.getByRole('button', { name: 'Delete Tiny random llama (test) from the cache' }).click();
    await row.getByText('Not downloaded', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Download Tiny random llama (test)' }).waitFor();
  } finally {
    await other.context().close();
  }
});
