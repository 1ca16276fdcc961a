/**
 * The Responses API in Firefox, as code of the origin calls it when it is not routed past the
 * service worker: the real `openai` SDK on the browser's own fetch (`window.swSdk`; the
 * page's global fetch goes straight to the runtime), and `window.browserFetch` with string
 * and Blob bodies → Firefox's service worker →
 * MessagePort → runtime worker → server. Firefox has no `Request.body`, so every request
 * that carries a body goes through the bounded Blob path (src/shared/read-request-body.ts)
 * twice: at the service worker edge and in the server.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HAVE_FIREFOX, NO_FIREFOX, openAppInFirefox, pageErrors, startFirefoxE2E, waitForRuntimeInFirefox } from '../../support/firefox';

describe.skipIf(!HAVE_FIREFOX)(HAVE_FIREFOX ? 'Firefox: the Responses API through the service worker' : `skipped: ${NO_FIREFOX}`, () => {
  let e2e: Awaited<ReturnType<typeof startFirefoxE2E>>;
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    e2e = await startFirefoxE2E();
    page = await openAppInFirefox(e2e.browser, e2e.app.origin, async (p) => void (errors = pageErrors(p)));
  });
  afterAll(() => e2e?.close());

  test('the page is Firefox, controlled by the service worker and cross-origin isolated, and has no Request.body', async () => {
    const seen = await page.evaluate(() => ({
      ua: navigator.userAgent,
      controlled: navigator.serviceWorker.controller !== null,
      isolated: crossOriginIsolated,
      requestBody: 'body' in Request.prototype,
    }));
    expect(seen).toMatchObject({ ua: expect.stringMatching(/Firefox\/\d+/), controlled: true, isolated: true, requestBody: false });
    console.log(`[firefox e2e] ${seen.ua}`);
  });

  test('create (plain) through the SDK, and by fetch with a string and a Blob body', async () => {
    const result = await page.evaluate(async () => {
      const sdk = window.swSdk!;
      const viaSdk = await sdk.responses.create({ model: 'test-scripted', input: 'hello from firefox' });
      const post = async (body: BodyInit) => {
        const r = await window.browserFetch!('/v1/responses', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        return { status: r.status, text: ((await r.json()) as { output_text?: string }).output_text };
      };
      const json = (input: string) => JSON.stringify({ model: 'test-scripted', input });
      return {
        sdk: { status: viaSdk.status, text: viaSdk.output_text },
        string: await post(json('a string body')),
        blob: await post(new Blob([json('a Blob body')], { type: 'application/json' })),
      };
    });
    expect(result).toEqual({
      sdk: { status: 'completed', text: 'You said: hello from firefox' },
      string: { status: 200, text: 'You said: a string body' },
      blob: { status: 200, text: 'You said: a Blob body' },
    });
  });

  test('a body over 16 MiB is a 413 in OpenAI’s shape', async () => {
    const result = await page.evaluate(async () => {
      const body = new Blob([`{"model":"test-scripted","input":"${'x'.repeat(16 * 1024 * 1024)}"}`]);
      const r = await window.browserFetch!('/v1/responses', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      return { status: r.status, body: (await r.json()) as unknown };
    });
    expect(result).toMatchObject({ status: 413, body: { error: { code: 'request_too_large', type: 'invalid_request_error' } } });
  });

  test('create (streaming): the deltas arrive as they are generated', async () => {
    const result = await page.evaluate(async () => {
      const input = JSON.stringify({ script: 'one two three four five six', delay_ms: 30 });
      const stream = await window.swSdk!.responses.create({ model: 'test-scripted', input, stream: true });
      const deltas: { text: string; at: number }[] = [];
      const types: string[] = [];
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'response.output_text.delta') deltas.push({ text: event.delta, at: performance.now() });
      }
      return { deltas, first: types[0], last: types.at(-1) };
    });
    expect(result.deltas.map((d) => d.text).join('')).toBe('one two three four five six');
    expect(result.deltas.length).toBeGreaterThanOrEqual(6);
    // 7 tokens × 30 ms: a buffered stream would deliver every delta within a few ms.
    expect(result.deltas.at(-1)!.at - result.deltas[0]!.at).toBeGreaterThan(100);
    expect([result.first, result.last]).toEqual(['response.created', 'response.completed']);
  });

  test('background: resumed as a stream after event n, then completes and is retrievable', async () => {
    const result = await page.evaluate(async () => {
      const sdk = window.swSdk!;
      const input = JSON.stringify({ script: 'alpha beta gamma delta', delay_ms: 40 });
      const created = await sdk.responses.create({ model: 'test-scripted', input, background: true, stream: true });
      // Read a few events, then drop the stream as a lost connection would.
      const seen: number[] = [];
      let id = '';
      for await (const event of created) {
        seen.push(event.sequence_number);
        if (event.type === 'response.created') id = event.response.id;
        if (seen.length === 3) break;
      }
      const resumed = await sdk.responses.retrieve(id, { stream: true, starting_after: seen.at(-1)! });
      const after: number[] = [];
      let text = '';
      for await (const event of resumed) {
        after.push(event.sequence_number);
        if (event.type === 'response.output_text.delta') text += event.delta;
      }
      const stored = await sdk.responses.retrieve(id);
      return { seen, after, status: stored.status, text: stored.output_text, streamed: text };
    });
    expect(result.after[0]).toBe(result.seen.at(-1)! + 1);
    expect(result.status).toBe('completed');
    expect(result.text).toBe('alpha beta gamma delta');
    expect('alpha beta gamma delta'.endsWith(result.streamed)).toBe(true);
  });

  test('cancel: a running background response is cancelled and stays so', async () => {
    const result = await page.evaluate(async () => {
      const sdk = window.swSdk!;
      const input = JSON.stringify({ script: 'x'.repeat(2000), delay_ms: 20 });
      const created = await sdk.responses.create({ model: 'test-scripted', input, background: true });
      const cancelled = await sdk.responses.cancel(created.id);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const after = await sdk.responses.retrieve(created.id);
      return { created: created.status, cancelled: cancelled.status, after: after.status };
    });
    expect(['queued', 'in_progress']).toContain(result.created);
    expect(result).toMatchObject({ cancelled: 'cancelled', after: 'cancelled' });
  });

  test('a client that goes away stops its foreground stream in the runtime: the response ends incomplete', async () => {
    const status = await page.evaluate(async () => {
      const sdk = window.swSdk!;
      const controller = new AbortController();
      const input = JSON.stringify({ script: 'z'.repeat(4000), delay_ms: 10 });
      const stream = await sdk.responses.create({ model: 'test-scripted', input, stream: true }, { signal: controller.signal });
      let id = '';
      let deltas = 0;
      try {
        for await (const event of stream) {
          if (event.type === 'response.created') id = event.response.id;
          if (event.type === 'response.output_text.delta' && ++deltas === 5) controller.abort();
        }
      } catch {
        // the SDK reports the abort
      }
      for (let i = 0; i < 100; i++) {
        const r = await sdk.responses.retrieve(id);
        if (r.status !== 'in_progress' && r.status !== 'queued') return r.status;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return 'still in_progress';
    });
    expect(status).toBe('incomplete');
  });

  test('conversations: created empty and with items, turns append to it, metadata updated, deleted', async () => {
    const result = await page.evaluate(async () => {
      const sdk = window.swSdk!;
      const empty = await sdk.conversations.create();
      const conv = await sdk.conversations.create({ items: [{ type: 'message', role: 'user', content: 'first' }], metadata: { topic: 'firefox' } });
      const turn = await sdk.responses.create({ model: 'test-scripted', conversation: conv.id, input: 'second' });
      const items = (await sdk.conversations.items.list(conv.id, { order: 'asc' })).data.map((i) => (i.type === 'message' ? i.role : i.type));
      const updated = await sdk.conversations.update(conv.id, { metadata: { topic: 'renamed' } });
      const deleted = await sdk.conversations.delete(empty.id);
      return { empty: empty.metadata, text: turn.output_text, items, topic: updated.metadata, deleted: deleted.deleted };
    });
    expect(result).toEqual({ empty: {}, text: 'You said: second', items: ['user', 'user', 'assistant'], topic: { topic: 'renamed' }, deleted: true });
  });

  test('WebGPU: /v1/local/status says Firefox on Linux has none and what to use instead; the CPU engine runs, on every core', async () => {
    const status = await page.evaluate(async () => (await (await window.browserFetch!('/v1/local/status')).json()) as { gpu: { usable: boolean; reason: string }; cpu: { usable: boolean; threads: number }; isolation: { crossOriginIsolated: boolean } });
    expect(status.gpu.usable).toBe(false);
    if (process.platform === 'linux') expect(status.gpu.reason).toMatch(/^Firefox on Linux does not provide WebGPU yet .* The CPU models work here; for the GPU models, open this app in Chrome or Edge/);
    expect(status.cpu.usable).toBe(true);
    expect(status.isolation.crossOriginIsolated).toBe(true);
    expect(status.cpu.threads).toBe(await page.evaluate(() => navigator.hardwareConcurrency));
  });

  test('the page’s own fetch (window.sdk) goes straight to the runtime: in this tab, and in a second one over a port connected through the service worker', async () => {
    const second = await openAppInFirefox(e2e.browser, e2e.app.origin);
    try {
      const direct = (p: Page) =>
        p.evaluate(async () => {
          const r = await window.sdk!.responses.create({ model: 'test-scripted', input: 'straight to the runtime', stream: true });
          let text = '';
          for await (const event of r) if (event.type === 'response.output_text.delta') text += event.delta;
          return { text, routed: fetch !== window.browserFetch, leader: window.localRuntime!.isLeader() };
        });
      expect(await direct(page)).toEqual({ text: 'You said: straight to the runtime', routed: true, leader: true });
      expect(await direct(second)).toEqual({ text: 'You said: straight to the runtime', routed: true, leader: false });
    } finally {
      await second.close();
    }
  });

  test('a second tab shares the one runtime (Web Locks) and reaches it through the service worker', async () => {
    const second = await openAppInFirefox(e2e.browser, e2e.app.origin);
    try {
      const seen = await second.evaluate(async () => {
        const { held = [] } = await navigator.locks.query();
        const text = (await window.swSdk!.responses.create({ model: 'test-scripted', input: 'from tab two' })).output_text;
        return { leader: window.localRuntime!.isLeader(), runtimes: held.filter((l) => l.name?.startsWith('local-responses/runtime/')).length, text };
      });
      expect(seen).toEqual({ leader: false, runtimes: 1, text: 'You said: from tab two' });
    } finally {
      await second.close();
    }
  });

  test('WebSocket mode: new WebSocket(ws://<origin>/v1/responses) in the page streams a turn as frames', async () => {
    const result = await page.evaluate(async () => {
      const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/v1/responses`);
      const frames: Array<{ type: string; sequence_number?: number; response?: { output_text?: string; status?: string } }> = [];
      const ended = new Promise<void>((resolve, reject) => {
        ws.addEventListener('message', (e) => {
          const frame = JSON.parse(String(e.data)) as (typeof frames)[number];
          frames.push(frame);
          if (frame.type === 'response.completed' || frame.type === 'error') resolve();
        });
        ws.addEventListener('close', (e) => reject(new Error(`closed ${e.code} ${e.reason}`)));
      });
      await new Promise((resolve, reject) => {
        ws.addEventListener('open', resolve, { once: true });
        ws.addEventListener('error', () => reject(new Error('the socket did not open')), { once: true });
      });
      ws.send(JSON.stringify({ type: 'response.create', model: 'test-scripted', input: 'over a socket in firefox' }));
      await ended;
      const closed = new Promise<number>((resolve) => ws.addEventListener('close', (e) => resolve(e.code)));
      ws.close(1000);
      const last = frames.at(-1)!;
      return { types: [frames[0]!.type, last.type], sequence: frames.map((f) => f.sequence_number), text: last.response?.output_text, code: await closed };
    });
    expect(result.types).toEqual(['response.created', 'response.completed']);
    expect(result.sequence).toEqual(result.sequence.map((_, i) => i));
    expect(result.text).toBe('You said: over a socket in firefox');
    expect(result.code).toBe(1000);
  });

  test('Files and vector stores: a multipart upload (no Request.body here) is stored byte for byte, ingested and found', async () => {
    const result = await page.evaluate(async () => {
      const sdk = window.swSdk!;
      const text = 'The lighthouse keeper logs the tide at dawn.\n'.repeat(2000) + 'Pelicans migrate along the coast in spring.';
      const file = await sdk.files.create({ file: new File([text], 'notes.txt', { type: 'text/plain' }), purpose: 'assistants' });
      const back = await (await sdk.files.content(file.id)).text();
      const created = await sdk.vectorStores.create({ name: 'firefox' });
      const attached = await sdk.vectorStores.files.createAndPoll(created.id, { file_id: file.id });
      const store = await sdk.vectorStores.retrieve(created.id);
      const found = await sdk.vectorStores.search(store.id, { query: 'pelicans migrate' });
      return { bytes: file.bytes, same: back === text, status: attached.status, counts: store.file_counts, top: found.data[0]?.content[0]?.text ?? '' };
    });
    expect(result.same).toBe(true);
    expect(result.status).toBe('completed');
    expect(result.bytes).toBeGreaterThan(90_000);
    expect(result.counts).toMatchObject({ completed: 1, failed: 0, total: 1 });
    expect(result.top).toContain('Pelicans migrate');
  });

  test('reload: stored responses are still there (IndexedDB in Firefox)', async () => {
    const id = await page.evaluate(async () => (await window.swSdk!.responses.create({ model: 'test-scripted', input: 'keep me' })).id);
    await page.reload();
    await waitForRuntimeInFirefox(page);
    expect(await page.evaluate(async (id) => (await window.swSdk!.responses.retrieve(id)).output_text, id)).toBe('You said: keep me');
    expect(errors).toEqual([]);
  });
});
