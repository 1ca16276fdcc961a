/**
 * Programmatic tool calling in Chromium through the real `openai` SDK in the page (and the
 * in-page WebSocket), on `test-scripted`: the model's program runs in QuickJS inside a worker
 * of its own, started by the runtime worker. A client function called from a program ends the
 * response and the program resumes when its output comes back (HTTP and WebSocket); results
 * are stored and replayed; the sandbox reaches no network, no storage and nothing of the page;
 * a CPU loop and a memory bomb end with their limit errors; cancel stops a program.
 */
import type { Page } from 'playwright-core';
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { configureRuntime, openApp, startE2E, waitForRuntime } from '../support/browser';
import { clientBundle } from '../support/client-bundle';
import type * as Kit from './clients/websocket';
import { pageResponses } from '../support/page-responses';

declare global {
  interface Window {
    wsKit?: typeof Kit;
  }
}

let e2e: Awaited<ReturnType<typeof startE2E>>;
let page: Page;
/** Every URL the browser requested while the tests ran (page, workers, service worker). */
const requested: string[] = [];
beforeAll(async () => {
  const [started, kit] = await Promise.all([startE2E(), clientBundle('websocket', 'wsKit')]);
  e2e = started;
  const context = await e2e.browser.newContext({ bypassCSP: true });
  // The page's stored runtime options: programs on, with a 5 s CPU limit.
  await configureRuntime(context, e2e.app.origin, { options: { tools: { programs: { timeLimitMs: 5000 } } } });
  context.on('request', (request) => void requested.push(request.url()));
  page = await openApp(context, e2e.app.origin);
  await page.addScriptTag({ content: kit });
}, 180_000);
afterAll(() => e2e?.close());

const PTC = { type: 'programmatic_tool_calling' };
const weather = { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, allowed_callers: ['programmatic'] };
const program = (code: string) => `<tool_call>${JSON.stringify({ name: 'program', arguments: { code } })}</tool_call>`;
const script = (steps: string[]) => JSON.stringify({ script: steps });

const { create, stream } = pageResponses(() => page);

type Item = { type: string; call_id?: string; caller?: unknown; result?: string; status?: string; arguments?: string; code?: string };
const types = (items: ReadonlyArray<{ type: string }>) => items.map((i) => i.type);

test('HTTP, not streamed: a program calls a client function; the response waits; the program resumes with its output (previous_response_id); stored and listed', async () => {
  const code = 'const a = await tools.get_weather({city: "Paris"}); return {paris: a, shout: a.toUpperCase()};';
  const first = await create({ input: script([program(code), 'Sunny in Paris.']), tools: [PTC, weather] });
  expect(types(first.output)).toEqual(['program', 'function_call']);
  const [prog, call] = first.output as unknown as [Item, Item];
  expect(prog).toMatchObject({ code, fingerprint: expect.stringMatching(/^fp_/) });
  expect(call).toMatchObject({ name: 'get_weather', arguments: '{"city":"Paris"}', caller: { type: 'program', caller_id: prog.call_id } });

  const second = await create({ previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'sunny' }], tools: [PTC, weather] });
  expect(types(second.output)).toEqual(['program_output', 'message']);
  expect(second.output[0]).toMatchObject({ call_id: prog.call_id, status: 'completed', result: '{"paris":"sunny","shout":"SUNNY"}' });
  expect(second.output_text).toBe('Sunny in Paris.');

  const stored = await page.evaluate(async (ids) => {
    const [a, b] = await Promise.all(ids.map((id) => window.sdk!.responses.retrieve(id)));
    const items = await window.sdk!.responses.inputItems.list(ids[1]!);
    return { a: a!.output, b: b!.output, items: items.data };
  }, [first.id, second.id]);
  expect(types(stored.a)).toEqual(['program', 'function_call']);
  expect(types(stored.b)).toEqual(['program_output', 'message']);
  expect(stored.items[0]).toMatchObject({ type: 'function_call_output', call_id: call.call_id });
});

test('HTTP, streamed: program and program_output items with their events; replayed as input (store: false) and never run again', async () => {
  const events = await stream({ input: script([program('let s = 0; for (let i = 1; i <= 100; i++) s += i; return s;'), 'The sum is 5050.']), tools: [PTC] });
  const added = events.filter((e) => e.type === 'response.output_item.added').map((e) => (e as { item: Item }).item.type);
  expect(added).toEqual(['program', 'program_output', 'message']);
  const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
  expect(done.type).toBe('response.completed');
  expect(done.response.output[1]).toMatchObject({ type: 'program_output', result: '5050', status: 'completed' });

  // A client keeping its own history sends the items back: read as history, not run.
  const replay = await create({ input: [...(done.response.output as unknown[]), { role: 'user', content: 'Again?' }], tools: [PTC], store: false });
  expect(replay.output_text).toBe('You said: Again?');
});

test('a builtin tool runs in place: the program calls Python (pyodide in its own sandbox) and goes on', async () => {
  // A page of its own, under the app's CSP: pyodide refuses to start where a worker may
  // importScripts a data: URL, which the kit page's bypassCSP would allow.
  const context = await e2e.browser.newContext();
  await configureRuntime(context, e2e.app.origin, { options: { tools: { programs: {} } } });
  const own = await openApp(context, e2e.app.origin);
  try {
    const python = { type: 'code_interpreter', container: { type: 'auto' }, allowed_callers: ['programmatic'] };
    const code = 'const out = await tools.python({code: "print(6 * 7)"}); return out.trim();';
    const body = { input: script([program(code), 'Python said 42.']), tools: [PTC, python] };
    const response = await own.evaluate((b) => window.sdk!.responses.create({ model: 'test-scripted', ...b } as never) as Promise<Response>, body);
    expect(types(response.output)).toEqual(['program', 'program_output', 'message']);
    expect(JSON.parse((response.output[1] as Item).result!)).toContain('42');
    expect(response.output_text).toBe('Python said 42.');
  } finally {
    await context.close();
  }
}, 90_000);

test('the sandbox reaches no network, no storage and nothing of the page', async () => {
  const marker = `/program-escape-${Date.now()}`;
  const code = `
    const r = {};
    for (const n of ["fetch","XMLHttpRequest","importScripts","indexedDB","caches","localStorage","sessionStorage","document","window","self","navigator","location","postMessage","WebSocket","Worker","setTimeout","BroadcastChannel","crypto"]) r[n] = typeof globalThis[n];
    const attempt = async (name, f) => { try { await f(); r[name] = "succeeded"; } catch (e) { r[name] = (e && e.name) || String(e); } };
    await attempt("callFetch", () => fetch("${marker}/fetch"));
    await attempt("callXhr", () => { const x = new XMLHttpRequest(); x.open("GET", "${marker}/xhr"); x.send(); });
    await attempt("callImport", () => import("${marker}/import.js"));
    await attempt("callImportScripts", () => importScripts("${marker}/importScripts.js"));
    await attempt("callIndexedDB", () => indexedDB.open("x"));
    await attempt("callCaches", () => caches.open("x"));
    await attempt("callLocalStorage", () => localStorage.getItem("x"));
    await attempt("callFunctionCtor", () => Function("return fetch")()("${marker}/ctor"));
    r.globals = Object.getOwnPropertyNames(globalThis);
    return r;`;
  const response = await create({ input: script([program(code), 'Checked.']), tools: [PTC] });
  const result = JSON.parse((response.output[1] as Item).result!) as Record<string, unknown> & { globals: string[] };
  for (const name of ['fetch', 'XMLHttpRequest', 'importScripts', 'indexedDB', 'caches', 'localStorage', 'sessionStorage', 'document', 'window', 'self', 'navigator', 'location', 'postMessage', 'WebSocket', 'Worker', 'setTimeout', 'BroadcastChannel', 'crypto'])
    expect(result[name], name).toBe('undefined');
  for (const name of ['callFetch', 'callXhr', 'callIndexedDB', 'callCaches', 'callLocalStorage', 'callImportScripts', 'callFunctionCtor']) expect(result[name], name).toBe('ReferenceError');
  expect(result.callImport).not.toBe('succeeded');
  expect(result.globals).toContain('tools');
  expect(result.globals.filter((g) => /^(fetch|XMLHttpRequest|importScripts|indexedDB|caches|localStorage|document|window|self|navigator|postMessage|Worker|WebSocket)$/.test(g))).toEqual([]);
  // Nothing was requested on the program's behalf.
  expect(requested.filter((url) => url.includes('program-escape'))).toEqual([]);
});

test('a CPU loop and a memory bomb end with their limit errors; the model is told', async () => {
  const loop = await create({ input: script([program('for (;;) { try { for (;;) {} } catch {} }'), 'Too slow.']), tools: [PTC] });
  expect(loop.output[1]).toMatchObject({ type: 'program_output', status: 'incomplete', result: expect.stringMatching(/CPU time limit \(5 s\)/) });
  const bomb = await create({ input: script([program('const a = []; for (let i = 0; ; i++) a.push({ i, s: "x" + i });'), 'Too big.']), tools: [PTC] });
  expect(bomb.output[1]).toMatchObject({ type: 'program_output', status: 'incomplete', result: expect.stringMatching(/out of memory \(its limit is 64 MB\)/) });
  expect(bomb.output_text).toBe('Too big.');
});

test('cancel stops a running program at once', async () => {
  const started = await create({ input: script([program('for (;;) {}'), 'Never.']), tools: [PTC], background: true });
  await page.waitForTimeout(1000);
  const at = Date.now();
  const cancelled = await page.evaluate((id) => window.sdk!.responses.cancel(id), started.id);
  expect(cancelled.status).toBe('cancelled');
  expect(Date.now() - at).toBeLessThan(5000);
  // The runtime is free: the next program answers at once.
  const next = await create({ input: script([program('return 1;'), 'One.']), tools: [PTC] });
  expect(next.output[1]).toMatchObject({ result: '1', status: 'completed' });
});

test('WebSocket: a program calls a client function; the next turn on the socket resumes it', async () => {
  const code = 'const r = await tools.get_weather({city: "Oslo"}); return "Oslo: " + r;';
  const result = await page.evaluate(
    async ({ input, tools }) => {
      const c = await window.wsKit!.Connection.open();
      const first = await c.create({ model: 'test-scripted', input, tools });
      const firstResponse = first.at(-1)!.response as { id: string; output: Array<{ type: string; call_id?: string; caller?: unknown }> };
      const call = firstResponse.output.find((i) => i.type === 'function_call')!;
      const second = await c.create({ model: 'test-scripted', previous_response_id: firstResponse.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'snow' }], tools });
      c.ws.close();
      return { first: first.map((f) => f.type), firstOutput: firstResponse.output, second: second.at(-1)!.response as { output: Array<{ type: string; result?: string }>; output_text: string } };
    },
    { input: script([program(code), 'Snowing.']), tools: [PTC, weather] },
  );
  expect(result.first.at(-1)).toBe('response.completed');
  expect(types(result.firstOutput)).toEqual(['program', 'function_call']);
  expect(result.firstOutput[1]).toMatchObject({ caller: { type: 'program' } });
  expect(types(result.second.output)).toEqual(['program_output', 'message']);
  expect(result.second.output[0]!.result).toBe('"Oslo: snow"');
  expect(result.second.output_text).toBe('Snowing.');
});

test('offline: once the deferred files are kept, a reload without network still runs programs (QuickJS’s wasm is precached)', async () => {
  await page.waitForFunction(() => window.localRuntime!.offlineFiles.current()?.state === 'done', undefined, { timeout: 90_000, polling: 200 });
  const context = page.context();
  await context.setOffline(true);
  try {
    await page.reload();
    await waitForRuntime(page);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    const response = await create({ input: script([program('return [1, 2, 3].map((n) => n * n);'), 'Squares.']), tools: [PTC] });
    expect(response.output[1]).toMatchObject({ type: 'program_output', status: 'completed', result: '[1,4,9]' });
  } finally {
    await context.setOffline(false);
  }
}, 150_000);
