/**
 * The Responses API through the real `openai` SDK in the page: SDK → fetch → service
 * worker → MessagePort → runtime worker → server, and back as SSE.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openApp, startE2E } from '../support/browser';

let e2e: Awaited<ReturnType<typeof startE2E>>;
let page: Page;
beforeAll(async () => {
  e2e = await startE2E();
  page = await openApp(await e2e.browser.newContext(), e2e.app.origin);
});
afterAll(() => e2e?.close());

test('create (plain)', async () => {
  const response = await page.evaluate(() =>
    window.sdk!.responses.create({ model: 'test-scripted', input: 'hello there' }),
  );
  expect(response.status).toBe('completed');
  expect(response.output_text).toBe('You said: hello there');
});

test('create (streaming): deltas arrive incrementally, not all at the end', async () => {
  const result = await page.evaluate(async () => {
    const input = JSON.stringify({ script: 'one two three four five six', delay_ms: 30 });
    const stream = await window.sdk!.responses.create({ model: 'test-scripted', input, stream: true });
    const deltas: { text: string; at: number }[] = [];
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') deltas.push({ text: event.delta, at: performance.now() });
    }
    return { deltas, types };
  });
  expect(result.deltas.map((d) => d.text).join('')).toBe('one two three four five six');
  expect(result.deltas.length).toBeGreaterThanOrEqual(6);
  // 7 tokens × 30 ms: buffered delivery would put every delta within a few ms of the last.
  const spread = result.deltas.at(-1)!.at - result.deltas[0]!.at;
  expect(spread).toBeGreaterThan(100);
  expect(result.types[0]).toBe('response.created');
  expect(result.types.at(-1)).toBe('response.completed');
});

test('background: retrieve while running, cancel, then it stays cancelled', async () => {
  const result = await page.evaluate(async () => {
    const sdk = window.sdk!;
    const input = JSON.stringify({ script: 'x'.repeat(2000), delay_ms: 20 });
    const created = await sdk.responses.create({ model: 'test-scripted', input, background: true });
    const running = await sdk.responses.retrieve(created.id);
    const cancelled = await sdk.responses.cancel(created.id);
    const after = await sdk.responses.retrieve(created.id);
    return { created: created.status, running: running.status, cancelled: cancelled.status, after: after.status };
  });
  expect(['queued', 'in_progress']).toContain(result.created);
  expect(['queued', 'in_progress']).toContain(result.running);
  expect(result.cancelled).toBe('cancelled');
  expect(result.after).toBe('cancelled');
});

test('background: completes and is retrievable', async () => {
  const result = await page.evaluate(async () => {
    const sdk = window.sdk!;
    const created = await sdk.responses.create({ model: 'test-scripted', input: 'bg', background: true });
    for (let i = 0; i < 100; i++) {
      const r = await sdk.responses.retrieve(created.id);
      if (r.status === 'completed') return r.output_text;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return 'timed out';
  });
  expect(result).toBe('You said: bg');
});

test('delete: the response is gone afterwards (404)', async () => {
  const result = await page.evaluate(async () => {
    const sdk = window.sdk!;
    const created = await sdk.responses.create({ model: 'test-scripted', input: 'to delete' });
    await sdk.responses.delete(created.id);
    try {
      await sdk.responses.retrieve(created.id);
      return 'still there';
    } catch (error) {
      return (error as { status?: number }).status;
    }
  });
  expect(result).toBe(404);
});

test('input items list', async () => {
  const items = await page.evaluate(async () => {
    const sdk = window.sdk!;
    const created = await sdk.responses.create({
      model: 'test-scripted',
      input: [
        { role: 'user', content: 'first' },
        { role: 'user', content: 'second' },
      ],
    });
    const page = await sdk.responses.inputItems.list(created.id, { order: 'asc' });
    return page.data.map((item) => (item.type === 'message' ? item.content : item.type));
  });
  expect(JSON.stringify(items)).toContain('first');
  expect(JSON.stringify(items)).toContain('second');
  expect(items).toHaveLength(2);
});

test('previous_response_id chain with a function call round trip', async () => {
  const result = await page.evaluate(async () => {
    const sdk = window.sdk!;
    const tools = [
      {
        type: 'function' as const,
        name: 'get_weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
        strict: false,
      },
    ];
    const script = ['<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>', 'It is sunny.'];
    const first = await sdk.responses.create({ model: 'test-scripted', input: JSON.stringify({ script }), tools });
    const call = first.output.find((item) => item.type === 'function_call');
    if (!call || call.type !== 'function_call') return { error: JSON.stringify(first.output) };
    const second = await sdk.responses.create({
      model: 'test-scripted',
      previous_response_id: first.id,
      tools,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"sky":"clear"}' }],
    });
    return { name: call.name, args: JSON.parse(call.arguments) as unknown, text: second.output_text, prev: second.previous_response_id, firstId: first.id };
  });
  expect(result).toMatchObject({ name: 'get_weather', args: { city: 'Paris' }, text: 'It is sunny.' });
  expect(result.prev).toBe(result.firstId);
});

test('reasoning item from <think>', async () => {
  const output = await page.evaluate(async () => {
    const r = await window.sdk!.responses.create({
      model: 'test-scripted',
      input: JSON.stringify({ script: '<think>hmm</think>Answer' }),
    });
    return { types: r.output.map((item) => item.type), text: r.output_text, output: r.output };
  });
  expect(output.types).toEqual(['reasoning', 'message']);
  expect(output.text).toBe('Answer');
  expect(JSON.stringify(output.output[0])).toContain('hmm');
});

test('errors from the server reach the SDK as OpenAI errors (unknown model → 4xx)', async () => {
  const result = await page.evaluate(async () => {
    try {
      await window.sdk!.responses.create({ model: 'no-such-model', input: 'x' });
      return null;
    } catch (error) {
      const e = error as { status?: number; error?: { type?: string } };
      return { status: e.status, type: e.error?.type };
    }
  });
  expect(result?.status).toBeGreaterThanOrEqual(400);
  expect(result?.status).toBeLessThan(500);
  expect(result?.type).toBe('invalid_request_error');
});

test('limits: a body at the nesting limit round-trips through the real IndexedDB; a deeper one is a 400', async () => {
  const result = await page.evaluate(async () => {
    // Body = level 1, text 2, format 3, schema 4, then arrays to level `depth`.
    const body = (depth: number) =>
      `{"model":"test-scripted","input":"deep","background":true,"text":{"format":{"type":"json_schema","name":"d","schema":{"x":${'['.repeat(depth - 4)}${']'.repeat(depth - 4)}}}}}`;
    const post = (text: string) => fetch('/v1/responses', { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    const created = (await (await post(body(64))).json()) as { id: string };
    let retrieved = await window.sdk!.responses.retrieve(created.id);
    while (retrieved.status !== 'completed') retrieved = await window.sdk!.responses.retrieve(created.id);
    const next = await window.sdk!.responses.create({ model: 'test-scripted', input: 'next', previous_response_id: created.id });
    const deeper = await post(body(1265));
    return { schema: JSON.stringify(retrieved.text?.format).length, next: next.status, deeper: deeper.status, error: ((await deeper.json()) as { error: { param: string } }).error.param };
  });
  expect(result).toEqual({ schema: expect.any(Number), next: 'completed', deeper: 400, error: 'text.format.schema' });
});

test('reload: stored responses are still retrievable (IndexedDB), and a stored row the runtime cannot use does not stop its start', async () => {
  const id = await page.evaluate(async () => (await window.sdk!.responses.create({ model: 'test-scripted', input: 'keep me' })).id);
  // A poisoned row, written past the runtime: before, every later start failed on it.
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('local-responses');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('responses', 'readwrite');
          tx.objectStore('responses').put({ id: 'resp_poisoned', status: 'in_progress', response: null });
          tx.oncomplete = () => (open.result.close(), resolve());
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
  await page.reload();
  await page.locator('[data-runtime-state="ready"]').waitFor();
  await page.waitForFunction(() => window.sdk !== undefined);
  const text = await page.evaluate(async (id) => (await window.sdk!.responses.retrieve(id)).output_text, id);
  expect(text).toBe('You said: keep me');
  const poisoned = await page.evaluate(async () => (await window.sdk!.responses.retrieve('resp_poisoned')).status);
  expect(poisoned).toBe('failed');
});
