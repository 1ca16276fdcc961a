/**
 * The real web-llm engine on SwiftShader (headless Chromium's software WebGPU), running the
 * tiny model of `test/fixtures/webllm-tiny/` (a 2-layer Llama with f32 weights, compiled for
 * WebGPU by TVM + MLC LLM; see its README). The fixture stands in for Qwen3 0.6B's q4f32
 * build on a same-origin mirror: it has Qwen's ChatML template and special tokens, so the
 * app's `qwen3` format, the catalog's variant choice (no `shader-f16` → q4f32) and web-llm's
 * whole path (library, weights, tokenizer, cache, sampler, grammar) run as for the real model.
 *
 * The weights are constructed so that greedy decoding is known (`expected.json`): after the
 * assistant header the model says `reply` and then `<|im_end|>`; under a JSON grammar it says
 * `json_reply`; under a grammar that forces a tool call, it writes `<tool_call>` and the
 * grammar spells the call out. `npm run test:webllm`; never skipped: a missing fixture fails.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { PREBUILT_RECORDS } from '../../src/engine/webllm/prebuilt-records';
import { serveDistWithMirror, type ServedWithMirror } from '../fixtures/webllm-mirror-server';
import { CHROMIUM_ARGS, configureRuntime, waitForRuntime } from '../support/browser';

const FIXTURE = fileURLToPath(new URL('../fixtures/webllm-tiny/', import.meta.url));
const WEBLLM_BUNDLE = fileURLToPath(new URL('../../node_modules/@mlc-ai/web-llm/lib/index.js', import.meta.url));
/** Our model id (the catalog's) and web-llm's build id that the fixture stands in for. */
const MODEL = 'Qwen3-0.6B-q4f16_1-MLC';
const BUILD = 'Qwen3-0.6B-q4f32_1-MLC';
const FILES = ['mlc-chat-config.json', 'tokenizer.json', 'tokenizer_config.json', 'tensor-cache.json', 'params_shard_0.bin'];
/** SwiftShader compiles every shader on the CPU: the first load takes a while. */
const LOAD_TIMEOUT_MS = 10 * 60_000;

interface Expected {
  reply: string;
  reply_tokens: number[];
  reply_first_16: string;
  json_reply: string;
  json_reply_tokens: number[];
}

let dir: string;
let app: ServedWithMirror;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let expected: Expected;
let libraryPath: string;

beforeAll(async () => {
  expected = JSON.parse(await readFile(join(FIXTURE, 'expected.json'), 'utf8')) as Expected;
  const record = PREBUILT_RECORDS.find((r) => r.model_id === BUILD)!;
  libraryPath = `libs/${record.model_lib.slice(record.model_lib.lastIndexOf('/') + 1)}`;
  // The mirror layout of `AppConfigOptions.modelBase`, plus web-llm's own bundle for the page.
  dir = await mkdtemp(join(tmpdir(), 'webllm-tiny-'));
  const main = join(dir, BUILD, 'resolve', 'main');
  await Promise.all([mkdir(main, { recursive: true }), mkdir(join(dir, 'libs')), mkdir(join(dir, 'webllm'))]);
  await Promise.all([
    ...FILES.map((name) => copyFile(join(FIXTURE, name), join(main, name))),
    copyFile(join(FIXTURE, 'model-webgpu.wasm'), join(dir, libraryPath)),
    copyFile(WEBLLM_BUNDLE, join(dir, 'webllm', 'index.js')),
    writeFile(join(dir, 'webllm', 'expose.js'), "import * as webllm from './index.js';\nwindow.webllm = webllm;\n"),
  ]);
  [app, browser] = await Promise.all([
    serveDistWithMirror(dir),
    chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [...CHROMIUM_ARGS, '--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader'],
    }),
  ]);
  context = await browser.newContext();
  await configureRuntime(context, app.origin, { modelBase: '/test-mirror/' });
  page = await openTab();
  const loaded = await loadModel(page);
  expect(loaded.at(-1), JSON.stringify(loaded.at(-1))).toMatchObject({ type: 'ready' });
}, LOAD_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all([browser?.close(), app?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function openTab(): Promise<Page> {
  const tab = await context.newPage();
  tab.on('console', (message) => {
    if (message.type() === 'error') console.log(`[page] ${message.text()}`);
  });
  await tab.goto(`${app.origin}/?test-models`);
  await waitForRuntime(tab);
  return tab;
}

interface LoadEvent {
  type: string;
  phase?: string;
  error?: { message: string; code: string | null };
}

/** `POST /v1/local/models/{id}/load`, its SSE events read to the end. */
function loadModel(tab: Page): Promise<LoadEvent[]> {
  return tab.evaluate(async (model) => {
    const response = await fetch(`/v1/local/models/${encodeURIComponent(model)}/load`, { method: 'POST' });
    return (await response.text())
      .split('\n\n')
      .map((block) => block.split('\n').find((line) => line.startsWith('data: '))?.slice(6))
      .filter((data): data is string => data !== undefined && data !== '[DONE]')
      .map((data) => JSON.parse(data) as LoadEvent);
  }, MODEL);
}

/** web-llm's own API in the page (its published bundle, no code of ours), on the same mirror. */
function webLlmDirect(tab: Page, messages: { role: string; content: string }[], extra: Record<string, unknown> = {}): Promise<{ text: string; finish: string | null; tokens: number }> {
  return tab.evaluate(
    async ({ build, libraryPath, messages, extra }) => {
      // web-llm's bundle is loaded by a module script (`expose.js`): an `import()` written here
      // would be rewritten by the test runner's transform before it reaches the page.
      const w = window as unknown as { tinyEngine?: Promise<unknown>; webllm?: { CreateMLCEngine(id: string, options: unknown): Promise<unknown> } };
      if (!w.webllm) {
        const script = Object.assign(document.createElement('script'), { type: 'module', src: `${location.origin}/test-mirror/webllm/expose.js` });
        const loaded = new Promise((resolve, reject) => Object.assign(script, { onload: resolve, onerror: reject }));
        document.head.append(script);
        await loaded;
      }
      const webllm = w.webllm!;
      const base = `${location.origin}/test-mirror/`;
      w.tinyEngine ??= webllm.CreateMLCEngine(build, {
        appConfig: {
          model_list: [{ model: `${base}${build}/resolve/main/`, model_id: build, model_lib: `${base}${libraryPath}`, overrides: { context_window_size: 4096 } }],
          cacheBackend: 'cache',
        },
      });
      const engine = (await w.tinyEngine) as { chat: { completions: { create(body: unknown): Promise<{ choices: { message: { content: string }; finish_reason: string | null }[]; usage: { completion_tokens: number } }> } } };
      const reply = await engine.chat.completions.create({ messages, temperature: 0, max_tokens: 64, ...extra });
      return { text: reply.choices[0]!.message.content, finish: reply.choices[0]!.finish_reason, tokens: reply.usage.completion_tokens };
    },
    { build: BUILD, libraryPath, messages, extra },
  );
}

test('greedy text through /v1/responses equals web-llm\'s own API for the same prompt, plain and streamed', async () => {
  const input = 'Say something.';
  const direct = await webLlmDirect(page, [{ role: 'user', content: input }], { extra_body: { enable_thinking: false } });
  // With thinking off, web-llm's own API shows the empty think block that its chat template
  // puts before the answer; /v1 gives the answer alone (the qwen3 format's parser).
  expect(direct.finish).toBe('stop');
  expect(direct.text).toBe(`<think>\n\n</think>\n\n${expected.reply}`);
  // web-llm counts the empty think block it adds with thinking off among the reply's tokens.
  console.log(`webllm-tiny: web-llm's own API counted ${direct.tokens} completion tokens for a reply of ${expected.reply_tokens.length} (+ the end token)`);

  const ours = await page.evaluate(
    async ({ model, input }) => {
      const plain = await window.sdk!.responses.create({ model, input, temperature: 0, reasoning: { effort: 'none' } });
      const stream = await window.sdk!.responses.create({ model, input, temperature: 0, stream: true, reasoning: { effort: 'none' } });
      const deltas: string[] = [];
      let done: { status?: string; output_text?: string } = {};
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta') deltas.push(event.delta!);
        if (event.type === 'response.completed') done = event.response!;
      }
      return { plain: { status: plain.status, text: plain.output_text }, deltas, streamed: done.status };
    },
    { model: MODEL, input },
  );
  expect(ours.plain).toEqual({ status: 'completed', text: expected.reply });
  expect(ours.deltas.join('')).toBe(expected.reply);
  expect(ours.deltas.length).toBeGreaterThan(1);
  expect(ours.streamed).toBe('completed');
}, LOAD_TIMEOUT_MS);

test('max_output_tokens ends the response incomplete after exactly that many tokens of answer', async () => {
  const result = await page.evaluate(
    async (model) => {
      const r = await window.sdk!.responses.create({ model, input: 'Say something.', temperature: 0, max_output_tokens: 16, reasoning: { effort: 'none' } });
      return { status: r.status, reason: r.incomplete_details?.reason, text: r.output_text, usage: r.usage };
    },
    MODEL,
  );
  // The scripted reply's first 16 tokens: the empty think block that web-llm puts before the
  // answer with thinking off must not count against the limit.
  expect(result).toMatchObject({ status: 'incomplete', reason: 'max_output_tokens', text: expected.reply_first_16 });
  expect(result.usage?.output_tokens).toBe(16);
});

test("a stop at the model's end token ends the response completed, with the reply's token count", async () => {
  const result = await page.evaluate(
    async (model) => {
      const t0 = performance.now();
      const r = await window.sdk!.responses.create({ model, input: 'What is the weather like today?', temperature: 0, reasoning: { effort: 'none' } });
      return { status: r.status, text: r.output_text, usage: r.usage, ms: performance.now() - t0 };
    },
    MODEL,
  );
  expect(result).toMatchObject({ status: 'completed', text: expected.reply });
  // Decode speed on SwiftShader, for the record (no measure of a GPU).
  console.log(`webllm-tiny: ${result.usage?.output_tokens} output tokens in ${Math.round(result.ms)} ms on SwiftShader (${((1000 * (result.usage?.output_tokens ?? 0)) / result.ms).toFixed(1)} tokens/s, prefill included)`);
});

test('structured output: a JSON schema goes through xgrammar and the answer parses', async () => {
  const result = await page.evaluate(async (model) => {
    const r = await window.sdk!.responses.create({
      model,
      input: 'Answer in JSON.',
      temperature: 0,
      text: { format: { type: 'json_schema', name: 'answer', strict: true, schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false } } },
    });
    return { status: r.status, text: r.output_text };
  }, MODEL);
  expect(result.status).toBe('completed');
  expect(JSON.parse(result.text)).toEqual(JSON.parse(expected.json_reply));
});

test('a custom tool with a grammar: the forced call goes through xgrammar and its input is in the language', async () => {
  const result = await page.evaluate(async (model) => {
    const r = await window.sdk!.responses.create({
      model,
      input: 'Look something up.',
      temperature: 0,
      reasoning: { effort: 'none' },
      tools: [{ type: 'custom', name: 'lookup', description: 'Looks a word up.', format: { type: 'grammar', syntax: 'lark', definition: 'start: "tiny" | "small"' } }],
      tool_choice: { type: 'custom', name: 'lookup' },
    });
    return { status: r.status, output: r.output.map((item) => ({ type: item.type, ...('name' in item ? { name: item.name } : {}), ...('input' in item ? { input: item.input } : {}) })) };
  }, MODEL);
  expect(result.status).toBe('completed');
  expect(result.output).toHaveLength(1);
  expect(result.output[0]).toMatchObject({ type: 'custom_tool_call', name: 'lookup' });
  expect(['tiny', 'small']).toContain((result.output[0] as { input: string }).input);
});

test('cancel mid-stream stops the generation: the stored response ends cancelled with part of the reply', async () => {
  const result = await page.evaluate(async (model) => {
    const stream = await window.sdk!.responses.create({ model, input: 'Say something.', temperature: 0, reasoning: { effort: 'none' }, background: true, stream: true });
    let id = '';
    for await (const event of stream) {
      if (event.type === 'response.created') id = event.response.id;
      if (event.type === 'response.output_text.delta') {
        await window.sdk!.responses.cancel(id);
        break;
      }
    }
    for (;;) {
      const r = await window.sdk!.responses.retrieve(id);
      if (r.status !== 'in_progress' && r.status !== 'queued') return { status: r.status, text: r.output_text };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, MODEL);
  expect(result.status).toBe('cancelled');
  expect(expected.reply.startsWith(result.text)).toBe(true);
  expect(result.text.length).toBeLessThan(expected.reply.length);
});

test('a developer message alone is answered; an input ending with an assistant message is a 400', async () => {
  const result = await page.evaluate(async (model) => {
    // Only system-role messages: web-llm refuses a conversation that does not end with a user
    // (or tool) message, so the wing sends them as the user's.
    const r = await window.sdk!.responses.create({ model, input: [{ role: 'developer', content: 'Say something.' }], temperature: 0, reasoning: { effort: 'none' } });
    const refused = await fetch('/v1/responses', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, input: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }] }),
    });
    return { status: r.status, text: r.output_text, refused: { status: refused.status, error: (await refused.json()).error } };
  }, MODEL);
  expect(result).toMatchObject({ status: 'completed', text: expected.reply });
  // Found by this test: it was a 200 whose response had failed mid-run (web-llm's MessageOrderError).
  expect(result.refused.status).toBe(400);
  expect(result.refused.error).toMatchObject({ type: 'invalid_request_error', param: 'input[1]', message: expect.stringContaining('ends with an assistant message') });
});

test('a second tab shares the one engine: same answer, no second load', async () => {
  const before = app.requests.length;
  const second = await openTab();
  const text = await second.evaluate(
    async (model) => (await window.sdk!.responses.create({ model, input: 'From the second tab.', temperature: 0, reasoning: { effort: 'none' } })).output_text,
    MODEL,
  );
  expect(text).toBe(expected.reply);
  expect(await second.evaluate(() => window.localRuntime!.isLeader())).toBe(false);
  expect(app.requests.slice(before).filter((r) => r.path.startsWith(`${BUILD}/`) || r.path.startsWith('libs/'))).toEqual([]);
  await second.close();
});

test('a reload loads the model from web-llm\'s cache: no second download', async () => {
  const before = app.requests.length;
  await page.reload();
  await waitForRuntime(page);
  const events = await loadModel(page);
  expect(events.at(-1)).toMatchObject({ type: 'ready' });
  const fetched = app.requests.slice(before).filter((r) => r.path.startsWith(`${BUILD}/`) || r.path.startsWith('libs/'));
  expect(fetched.filter((r) => /params_shard|\.wasm$/.test(r.path))).toEqual([]);
}, LOAD_TIMEOUT_MS);
