/**
 * A full web-llm load and real generation, on a machine with a GPU and a model mirror.
 * Skipped unless `WEBLLM_MODEL_BASE` is set (see `realModelSource`):
 *
 *   WEBLLM_MODEL_BASE=/data/webllm-mirror npx vitest run --project e2e test/e2e/webllm-real-gpu.test.ts
 *
 * The mirror holds, for the build this GPU loads (`q4f16_1` with `shader-f16`, else
 * `q4f32_1`), a clone of `mlc-ai/<build>` (at `<build>/resolve/main/`) and the model library
 * under `libs/` (from `mlc-ai/binary-mlc-llm-libs`, `web-llm-models/v0_2_86/`); see
 * `AppConfigOptions.modelBase`. `WEBLLM_MODEL` picks the catalog model (default Qwen3 0.6B),
 * `WEBLLM_CHROMIUM_ARGS` adds browser flags, `WEBLLM_ALLOW_SOFTWARE_GPU=1` accepts
 * SwiftShader (minutes per token).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { realGpuChromiumArgs, realModelSource, serveDistWithMirror, type ServedWithMirror } from '../fixtures/webllm-mirror-server';
import { CHROMIUM_ARGS, configureRuntime, waitForRuntime } from '../support/browser';

const source = realModelSource();
const MODEL = process.env.WEBLLM_MODEL ?? 'Qwen3-0.6B-q4f16_1-MLC';
const LOAD_TIMEOUT_MS = 15 * 60_000;
const GENERATE_TIMEOUT_MS = 5 * 60_000;

if (!source)
  console.warn(
    'webllm-real-gpu: skipped. Set WEBLLM_MODEL_BASE to a web-llm model mirror (a directory or an http(s) URL, or `huggingface`) ' +
      'and run on a machine with a GPU; see the header of test/e2e/webllm-real-gpu.test.ts.',
  );

describe.skipIf(!source)(`web-llm on a real GPU (${MODEL}, WEBLLM_MODEL_BASE=${source?.description ?? 'unset'})`, () => {
  let browser: Browser;
  let app: ServedWithMirror;
  let page: Page;
  let emptyDir: string | null = null;

  beforeAll(async () => {
    emptyDir = source!.dir ? null : await mkdtemp(join(tmpdir(), 'no-mirror-'));
    [app, browser] = await Promise.all([
      serveDistWithMirror(source!.dir ?? emptyDir!, '/model-mirror'),
      chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...realGpuChromiumArgs()] }),
    ]);
    const context = await browser.newContext();
    if (source!.modelBase) await configureRuntime(context, app.origin, { modelBase: source!.modelBase });
    page = await context.newPage();
    await page.goto(`${app.origin}/?test-models`);
    await waitForRuntime(page);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), app?.close()]);
    if (emptyDir) await rm(emptyDir, { recursive: true, force: true });
  });

  test('the GPU is usable', async () => {
    const status = await page.evaluate(async () => (await fetch('/v1/local/status')).json());
    expect(status.gpu.reason).toBeNull();
    expect(status.gpu.usable).toBe(true);
    if (status.gpu.fallbackAdapter && !process.env.WEBLLM_ALLOW_SOFTWARE_GPU)
      throw new Error(`Only a software adapter (${JSON.stringify(status.gpu.adapter)}) is available; set WEBLLM_ALLOW_SOFTWARE_GPU=1 to run on it anyway.`);
  });

  test(
    'load with progress until ready; the model is then loaded and cached',
    async () => {
      const events = await page.evaluate(async (model) => {
        const text = await (await fetch(`/v1/local/models/${model}/load`, { method: 'POST' })).text();
        return text
          .split('\n\n')
          .map((block) => block.split('\n').find((line) => line.startsWith('data: '))?.slice(6))
          .filter((data): data is string => data !== undefined && data !== '[DONE]')
          .map((data) => JSON.parse(data) as { type: string; phase?: string; progress?: number; error?: { message: string } });
      }, MODEL);
      const last = events.at(-1)!;
      expect(last.error?.message).toBeUndefined();
      expect(last.type).toBe('ready');
      const phases = new Set(events.filter((e) => e.type === 'progress').map((e) => e.phase));
      expect(phases).toContain('ready');
      expect(phases.has('compile') || phases.has('download')).toBe(true);
      const status = await page.evaluate(async () => (await fetch('/v1/local/status')).json());
      expect(status.loaded).toBe(MODEL);
      expect(status.models.find((m: { id: string }) => m.id === MODEL)).toMatchObject({ cached: true, loaded: true });
    },
    LOAD_TIMEOUT_MS,
  );

  test(
    'a streamed answer, then a previous_response_id turn that reuses the KV cache',
    async () => {
      const result = await page.evaluate(async (model) => {
        const sdk = window.sdk!;
        const first = await sdk.responses.create({ model, input: 'Name three colors, comma separated.', reasoning: { effort: 'none' }, max_output_tokens: 64, temperature: 0 });
        const stream = await sdk.responses.create({ model, input: 'Now three animals.', previous_response_id: first.id, reasoning: { effort: 'none' }, max_output_tokens: 64, temperature: 0, stream: true });
        let deltas = 0;
        let second: { status: string; output_text: string; usage: { input_tokens: number; input_tokens_details: { cached_tokens: number } } | null } | null = null;
        for await (const event of stream) {
          if (event.type === 'response.output_text.delta') deltas++;
          if (event.type === 'response.completed') second = { status: String(event.response.status), output_text: event.response.output_text, usage: event.response.usage ?? null };
        }
        return { first: { status: first.status, text: first.output_text, usage: first.usage }, second, deltas };
      }, MODEL);
      expect(result.first.status).toBe('completed');
      expect(result.first.text.length).toBeGreaterThan(0);
      expect(result.second!.status).toBe('completed');
      expect(result.deltas).toBeGreaterThan(1);
      // Turn 2 prefilled only the new message: the first turn is served from the KV cache.
      expect(result.second!.usage!.input_tokens_details.cached_tokens).toBeGreaterThan(result.first.usage!.input_tokens);
    },
    GENERATE_TIMEOUT_MS,
  );

  test(
    'structured output follows the JSON schema',
    async () => {
      const text = await page.evaluate(async (model) => {
        const response = await window.sdk!.responses.create({
          model,
          input: 'Give a city and its country.',
          max_output_tokens: 96,
          text: { format: { type: 'json_schema', name: 'place', strict: true, schema: { type: 'object', properties: { city: { type: 'string' }, country: { type: 'string' } }, required: ['city', 'country'], additionalProperties: false } } },
        });
        return response.output_text;
      }, MODEL);
      expect(Object.keys(JSON.parse(text) as object).sort()).toEqual(['city', 'country']);
    },
    GENERATE_TIMEOUT_MS,
  );
});
