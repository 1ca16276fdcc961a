/**
 * The CPU engine on a model laid out like the catalog's: Q4_K_M (Q4_K and Q6_K blocks) with
 * 64-wide attention heads, which the catalog runs on a q8_0 KV cache with flash attention
 * (src/engine/wllama/gguf-catalog.ts, `kv_cache`). The tiny models of wllama.test.ts are F32 with
 * 16-wide heads and keep llama.cpp's f16 cache, so only this file runs the K-quant kernels
 * and the quantized cache in the real wasm: through a long context (where the cache type is
 * what decoding reads most), and on into a next turn that reuses that cache.
 *
 * The model is `test/fixtures/make-bench-gguf.ts`'s, at a small shape (~1.4M parameters,
 * made in well under a second), served under the bench model's catalog name; and the same
 * with 16-wide heads, which that cache does not fit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BENCH_LLAMA, makeBenchGguf } from '../fixtures/make-bench-gguf';
import { configureRuntime, openApp, serveModelMirror, startE2E, type ModelMirror } from '../support/browser';
import type { LocalStatus } from '../../src/protocol/local-status';

const SMALL_SHAPE = { ...BENCH_LLAMA, nEmbd: 256, nLayer: 2, nHead: 4, nHeadKv: 2, nFf: 512 };

let e2e: Awaited<ReturnType<typeof startE2E>>;
let mirror: ModelMirror;
let mirrorDir: string;
let page: Page;
beforeAll(async () => {
  mirrorDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gguf-kquant-'));
  fs.writeFileSync(path.join(mirrorDir, 'test-bench-llama.gguf'), makeBenchGguf('q4_k_m', { shape: SMALL_SHAPE }));
  // The same kind of model with 16-wide heads, which a q8_0 cache does not fit.
  fs.mkdirSync(path.join(mirrorDir, 'narrow'));
  fs.writeFileSync(path.join(mirrorDir, 'narrow', 'test-bench-llama.gguf'), makeBenchGguf('q4_k_m', { shape: { ...SMALL_SHAPE, nHead: 16, nHeadKv: 8 } }));
  [e2e, mirror] = await Promise.all([startE2E(), serveModelMirror(mirrorDir)]);
  page = await openWithMirror(mirror.base);
});

async function openWithMirror(base: string) {
  const context = await e2e.browser.newContext();
  await configureRuntime(context, e2e.app.origin, { modelBase: base });
  return openApp(context, e2e.app.origin);
}
afterAll(async () => {
  await Promise.all([e2e?.close(), mirror?.close()]);
  if (mirrorDir) fs.rmSync(mirrorDir, { recursive: true, force: true });
});

test('a Q4_K_M model decodes on its q8_0 KV cache through a ~1,500-token context, and the next turn reuses the cache', async () => {
  const result = await page.evaluate(async () => {
    const sdk = window.sdk!;
    const base = { model: 'test-bench-llama', temperature: 0 };
    // One token per character in the test vocabulary.
    const history = 'the harbour lantern and the quiet morning sailor read the map of the island. '.repeat(19);
    const first = await sdk.responses.create({ ...base, input: history, max_output_tokens: 48 });
    const second = await sdk.responses.create({ ...base, input: 'And then?', previous_response_id: first.id, max_output_tokens: 16 });
    const status = (await (await fetch('/v1/local/status')).json()) as LocalStatus;
    return { first, second, status };
  });
  // The model never picks EOS (make-bench-gguf.ts): each turn runs to its limit, every token decoded on the cache.
  for (const [r, limit] of [[result.first, 48], [result.second, 16]] as const) {
    expect(r.status).toBe('incomplete');
    expect(r.incomplete_details?.reason).toBe('max_output_tokens');
    expect(r.usage?.output_tokens).toBe(limit);
    expect(r.output_text.length).toBeGreaterThan(0);
  }
  expect(result.first.usage!.input_tokens).toBeGreaterThan(1400);
  expect(result.second.usage!.input_tokens_details.cached_tokens).toBeGreaterThanOrEqual(result.first.usage!.input_tokens);
  expect(result.status.loaded).toBe('test-bench-llama');
});

test("a model whose heads do not fit the catalog's q8_0 cache still answers: the engine loads it again on f16", async () => {
  const narrow = await openWithMirror(`${mirror.base}narrow/`);
  try {
    const r = await narrow.evaluate(() => window.sdk!.responses.create({ model: 'test-bench-llama', input: 'Hello there', temperature: 0, max_output_tokens: 16 }));
    // On the q8_0 cache this model loads, then its first token crashes the wasm and the response fails.
    expect(r.error).toBeNull();
    expect(r.status).toBe('incomplete');
    expect(r.usage?.output_tokens).toBe(16);
  } finally {
    await narrow.context().close();
  }
});
