/**
 * Builtin tools in Chromium through the real `openai` SDK in the page, with
 * `test-scripted` scripting the calls: `code_interpreter` on pyodide in the sandbox frame,
 * and `web_search` against a fixture "web" on another 127.0.0.1 port.
 *
 * One page for the file: the runtime is configured through the stored runtime options
 * (a 3 s Python time limit, the fixture SearXNG, its loopback host allowed by name). Each new conversation gets a new
 * Python interpreter (pyodide starts in seconds), so tests that do not need a fresh one
 * continue the first test's conversation (`chain`).
 */
import type { Page } from 'playwright-core';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { configureRuntime, openApp, startE2E } from '../support/browser';
import { codeInterpreterEventTypes, THINK_PYTHON_ANSWER_EVENTS, WEB_SEARCH_CALL_EVENTS, webSearchEventTypes } from '../support/builtin-tool-events';
import { serveFixtureWeb, type FixtureWeb } from '../support/fixture-web';
import { expectEveryEscapeFailed, sandboxEscapeCode } from '../support/sandbox-escapes';
import { pageResponses } from '../support/page-responses';

const TIME_LIMIT_MS = 3000;

let e2e: Awaited<ReturnType<typeof startE2E>>;
let web: FixtureWeb;
let privateHost: FixtureWeb;
let page: Page;
beforeAll(async () => {
  [e2e, web, privateHost] = await Promise.all([startE2E(), serveFixtureWeb(), serveFixtureWeb()]);
  // The fixture web is allowed by name; `privateHost` (another loopback port) is not.
  const context = await e2e.browser.newContext();
  await configureRuntime(context, e2e.app.origin, {
    options: { tools: { python: { timeLimitMs: TIME_LIMIT_MS }, webSearch: { provider: { type: 'searxng', baseUrl: web.origin }, allowHosts: [new URL(web.origin).host] } } },
  });
  page = await openApp(context, e2e.app.origin);
});
afterAll(async () => {
  await e2e?.close();
  await web?.close();
  await privateHost?.close();
});

const call = (name: string, args: object) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
const script = (steps: string[]) => JSON.stringify({ script: steps });

const { create, stream } = pageResponses(() => page);

const codeInterpreter = { type: 'code_interpreter', container: { type: 'auto' } };
/** A response of the first test's conversation: its Python interpreter is already up. */
let chain: string | undefined;
const inChain = () => (chain ? { previous_response_id: chain } : {});
const include = ['code_interpreter_call.outputs'];

/**
 * Python workers (in the sandbox frame) that do not run a trivial script within 2 s: a
 * worker whose thread is busy with model code cannot. Zero means no core is left spinning.
 */
async function busyWorkers(): Promise<number> {
  expect(page.workers().length, 'the page’s workers include the sandbox’s Python workers').toBeGreaterThan(1);
  const answers = await Promise.all(
    page.workers().map((worker) =>
      Promise.race([
        worker.evaluate(() => 1).then(() => 0, () => 0), // closed meanwhile: not busy either
        new Promise<number>((resolve) => setTimeout(() => resolve(1), 2000)),
      ]),
    ),
  );
  return answers.reduce((sum, busy) => sum + busy, 0);
}

function logsOf(item: unknown): string {
  const outputs = (item as { outputs?: Array<{ type: string; logs?: string }> | null }).outputs ?? [];
  return outputs.map((o) => o.logs ?? '').join('');
}

describe('code_interpreter', () => {
  test('print(sum(range(10))): every event in order, logs 45, and the answer', async () => {
    const started = Date.now();
    const events = await stream({
      input: script([`<think>add</think>${call('python', { code: 'print(sum(range(10)))' })}`, 'The sum is 45.']),
      tools: [codeInterpreter],
      include,
    });
    console.log(`first python call (pyodide start included): ${Date.now() - started} ms`);
    expect(codeInterpreterEventTypes(events)).toEqual(THINK_PYTHON_ANSWER_EVENTS);
    const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
    expect(done.type).toBe('response.completed');
    expect(done.response.output[1]).toMatchObject({
      type: 'code_interpreter_call',
      code: 'print(sum(range(10)))',
      status: 'completed',
      container_id: expect.stringMatching(/^cntr_/),
      outputs: [{ type: 'logs', logs: '45\n' }],
    });
    expect(done.response.output_text).toBe('The sum is 45.');
    chain = done.response.id;
  });

  test('stdout and stderr in order, tracebacks, and the last expression shown like a notebook', async () => {
    const code = [
      'import sys',
      'print("one")',
      'print("two", file=sys.stderr)',
      'print("three")',
      'def f():',
      '    return 1 / 0',
      'f()',
    ].join('\n');
    const r = await create({ ...inChain(), input: script([call('python', { code }), 'ok']), tools: [codeInterpreter], include });
    const logs = logsOf(r.output[0]);
    expect(logs.startsWith('one\ntwo\nthree\nTraceback (most recent call last):\n')).toBe(true);
    expect(logs).toContain('File "<python>", line 7');
    expect(logs).toContain('ZeroDivisionError: division by zero');
    expect(logs).not.toContain('_pyodide'); // the runner's own frames are cut
    expect(r.output[0]).toMatchObject({ status: 'failed' });

    const last = await create({ ...inChain(), input: script([call('python', { code: 'x = 6\nx * 7' }), 'ok']), tools: [codeInterpreter], include });
    expect(logsOf(last.output[0])).toBe('42\n');
  });

  test('sandbox: every escape attempt fails, as seen from Python', async () => {
    const app = e2e.app.origin;
    const before = web.requests.length;
    const code = sandboxEscapeCode({ app, web: web.origin });
    const r = await create({ ...inChain(), input: script([call('python', { code }), 'ok']), tools: [codeInterpreter], include });
    expect(r.output[0]).toMatchObject({ status: 'completed' });
    const results = JSON.parse(logsOf(r.output[0])) as Record<string, string>;
    console.log('sandbox escape attempts:', JSON.stringify(results, null, 1));
    expectEveryEscapeFailed(results);
    // No request left the sandbox, not even to a site that allows every origin.
    expect(web.requests.slice(before)).toEqual([]);
    // And the app is fine: its IndexedDB still answers through /v1.
    const after = await create({ input: 'still here', tools: [] });
    expect(after.output_text).toBe('You said: still here');
  });

  test(`an endless loop is interrupted at the ${TIME_LIMIT_MS / 1000} s limit (KeyboardInterrupt); the runtime keeps serving, the interpreter keeps its state`, async () => {
    // The page is cross-origin isolated, so the sandbox has its interrupt buffer: the loop
    // is stopped inside Python instead of its worker being terminated.
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    const started = Date.now();
    // In the first test's conversation: its interpreter is up, so the time is the limit's.
    const looped = await create({ ...inChain(), input: script([call('python', { code: 'x = 1\nwhile True: pass' }), 'It took too long.']), tools: [codeInterpreter], include });
    const elapsed = Date.now() - started;
    console.log(`endless loop response: ${elapsed} ms`);
    expect(looped.status).toBe('completed');
    expect(looped.output[0]).toMatchObject({ type: 'code_interpreter_call', status: 'failed' });
    expect(logsOf(looped.output[0]), JSON.stringify(looped.output[0])).toContain('KeyboardInterrupt');
    expect(looped.output_text).toBe('It took too long.');
    expect(elapsed).toBeLessThan(TIME_LIMIT_MS + 5_000);

    const plain = await create({ input: 'are you there?', tools: [] });
    expect(plain.output_text).toBe('You said: are you there?');

    const next = await create({
      previous_response_id: looped.id,
      input: script([call('python', { code: 'print("x" in globals(), x + 1)' }), 'kept']),
      tools: [codeInterpreter],
      include,
    });
    expect(next.output[0]).toMatchObject({ status: 'completed', container_id: (looped.output[0] as { container_id: string }).container_id });
    // `x`, set before the loop in the interrupted call, is still there.
    expect(logsOf(next.output[0])).toBe('True 2\n');
  });

  test('a forged "done" with 12 MB of images, then a loop: nothing of it is stored, the worker is stopped at the limit', async () => {
    // Model code can post what the worker posts; it cannot see the call id, but a fresh
    // interpreter's first call is 1.
    // (12 MB: 60 MB messages do not make it across Chromium's processes at all.)
    // Through pyodide's `js` module (no eval: the app's CSP refuses `run_js`).
    const code = [
      'import js',
      'from pyodide.ffi import to_js',
      "images = ['data:image/png;base64,' + 'A' * 3_000_000] * 4",
      "js.postMessage(to_js({'kind': 'done', 'call': 1, 'error': None, 'images': images, 'imagesDropped': 0}, dict_converter=js.Object.fromEntries))",
      'while True:',
      '    pass',
    ].join('\n');
    const started = Date.now();
    const r = await create({ input: script([call('python', { code }), 'stopped']), tools: [codeInterpreter], include });
    const elapsed = Date.now() - started;
    console.log(`forged done response: ${elapsed} ms, ${JSON.stringify(r).length} characters`);
    expect(r.output[0]).toMatchObject({ type: 'code_interpreter_call', status: 'failed' });
    expect(JSON.stringify(r).length).toBeLessThan(100_000);
    expect(elapsed).toBeGreaterThanOrEqual(TIME_LIMIT_MS - 500); // it was not taken as done
    await expect.poll(() => busyWorkers(), { timeout: 10_000 }).toBe(0);
  });

  test('asyncio.ensure_future(spin()): the call returns, the spinning worker is stopped anyway; the next call says the state is gone', async () => {
    // The pause lets the call return first; then the task takes the core.
    const code = ['import asyncio', 'async def spin():', '    await asyncio.sleep(0.5)', '    while True:', '        pass', 'asyncio.ensure_future(spin())', 'print("returned")'].join('\n');
    const first = await create({ input: script([call('python', { code }), 'spinning']), tools: [codeInterpreter], include });
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the task has started
    await expect.poll(() => busyWorkers(), { timeout: TIME_LIMIT_MS + 10_000 }).toBe(0);
    const next = await create({ previous_response_id: first.id, input: script([call('python', { code: 'print("spin" in globals())' }), 'ok']), tools: [codeInterpreter], include });
    // Stopped during the call (fresh interpreter now), or right after it (this call says so).
    expect(logsOf(next.output[0])).not.toContain('True');
  });

  test('Python state persists across a previous_response_id turn', async () => {
    const first = await create({ input: script([call('python', { code: 'x = 41' }), 'stored']), tools: [codeInterpreter], include });
    const second = await create({
      previous_response_id: first.id,
      input: script([call('python', { code: 'print(x + 1)' }), 'x + 1 is 42']),
      tools: [codeInterpreter],
      include,
    });
    expect(second.output[0]).toMatchObject({ status: 'completed', outputs: [{ type: 'logs', logs: '42\n' }] });
    expect(second.output_text).toBe('x + 1 is 42');
  });
});

describe('web_search', () => {
  test('search → open → find against the fixture web; citations point at the fixture page', async () => {
    const url = `${web.origin}/pages/paris.html`;
    const events = await stream({
      input: script([
        call('search', { query: 'paris population' }),
        call('open_page', { url }),
        call('find_in_page', { url, pattern: 'population' }),
        `Paris has about 2.1 million residents (${url}).`,
      ]),
      tools: [{ type: 'web_search' }],
      // A search's sources are shown only when asked for, as OpenAI does.
      include: ['web_search_call.action.sources'],
    });
    const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
    expect(done.type).toBe('response.completed');
    const calls = done.response.output.filter((o) => o.type === 'web_search_call');
    expect(calls.map((c) => c.status)).toEqual(['completed', 'completed', 'completed']);
    expect(calls.map((c) => (c as { action: { type: string } }).action.type)).toEqual(['search', 'open_page', 'find_in_page']);
    expect((calls[0] as { action: { sources?: Array<{ url: string }> } }).action.sources).toEqual([
      { type: 'url', url },
      { type: 'url', url: `${web.origin}/pages/no-cors.html` },
    ]);
    expect(webSearchEventTypes(events)).toEqual(Array(3).fill(WEB_SEARCH_CALL_EVENTS).flat());
    const message = done.response.output.at(-1)!;
    expect(message.type).toBe('message');
    const annotations = (message as { content: Array<{ annotations: unknown[] }> }).content[0]!.annotations;
    expect(annotations).toEqual([
      { type: 'url_citation', url, title: expect.stringContaining('Paris'), start_index: done.response.output_text.indexOf(url), end_index: done.response.output_text.indexOf(url) + url.length },
    ]);
    expect(events.some((e) => e.type === 'response.output_text.annotation.added')).toBe(true);
    expect(web.requests).toEqual(expect.arrayContaining(['GET /search?q=paris+population&format=json', 'GET /pages/paris.html']));
    // find_in_page read the page opened before: fetched once.
    expect(web.requests.filter((r) => r === 'GET /pages/paris.html')).toHaveLength(1);
  });

  test('a page without CORS headers fails cleanly: the call is failed, the response completes', async () => {
    const url = `${web.origin}/pages/no-cors.html`;
    const r = await create({ input: script([call('open_page', { url }), 'I could not read that page.']), tools: [{ type: 'web_search' }] });
    expect(r.status).toBe('completed');
    expect(r.output[0]).toMatchObject({ type: 'web_search_call', status: 'failed', action: { type: 'open_page', url } });
    expect(r.output_text).toBe('I could not read that page.');
  });

  test.each([302, 307])('a %i from the allowed host to another loopback port is not followed: that host sees no request', async (status) => {
    const target = `${privateHost.origin}/pages/paris.html`;
    const url = `${web.origin}/redirect?status=${status}&to=${encodeURIComponent(target)}`;
    const r = await create({ input: script([call('open_page', { url }), 'Not followed.']), tools: [{ type: 'web_search' }] });
    expect(r.status).toBe('completed');
    expect(r.output[0]).toMatchObject({ type: 'web_search_call', status: 'failed', action: { type: 'open_page', url } });
    expect(web.requests).toContain(`GET /redirect?status=${status}&to=${encodeURIComponent(target)}`);
    expect(privateHost.requests).toEqual([]);
  });

  test('an input_image URL on http:, or on a loopback host over https:, is a 400 naming the part; no host sees a request, the allowed one neither', async () => {
    const ask = (imageUrl: string) =>
      page.evaluate(async (url) => {
        try {
          await window.sdk!.responses.create({ model: 'test-scripted-vision', input: [{ role: 'user', content: [{ type: 'input_text', text: 'What is it?' }, { type: 'input_image', image_url: url, detail: 'auto' }] }] } as never);
          return null;
        } catch (e) {
          const { status, code, param, message } = e as { status: number; code: string; param: string; message: string };
          return { status, code, param, message };
        }
      }, imageUrl);
    const https = (origin: string) => origin.replace(/^http:/, 'https:');
    const refusals = {
      [`${privateHost.origin}/image-probe.png`]: { code: 'invalid_value', says: 'http: URLs are not accepted' },
      [`${https(privateHost.origin)}/image-probe.png`]: { code: 'invalid_image_url', says: 'is a loopback address; images are fetched from public hosts only' },
      // Allowed for the web tools (by host and port), never for an image a request names.
      [`${https(web.origin)}/image-probe.png`]: { code: 'invalid_image_url', says: 'is a loopback address; images are fetched from public hosts only' },
    };
    for (const [url, { code, says }] of Object.entries(refusals)) {
      const refused = await ask(url);
      expect(refused, url).toMatchObject({ status: 400, code, param: 'input[0].content[1].image_url' });
      expect(refused!.message).toContain(says);
    }
    expect(privateHost.requests).toEqual([]);
    expect(web.requests.filter((r) => r.includes('image-probe'))).toEqual([]);
  });

  test('never this app: open_page on /v1 fails without a request', async () => {
    const url = `${e2e.app.origin}/v1/models`;
    const r = await create({ input: script([call('open_page', { url }), 'Not allowed.']), tools: [{ type: 'web_search_preview' }] });
    expect(r.status).toBe('completed');
    expect(r.output[0]).toMatchObject({ type: 'web_search_call', status: 'failed' });
  });
});
