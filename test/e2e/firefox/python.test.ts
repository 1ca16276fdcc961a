/**
 * Python (`code_interpreter` on pyodide) in Firefox, through the real `openai` SDK in the
 * page, with `test-scripted` scripting the calls: the sandbox frame starts (it did not,
 * before: its bootstrap built a MessageEvent Firefox refuses), runs code with the same
 * events as in Chromium, keeps nothing of the app within reach, and a runaway call is
 * stopped at its time limit with the interpreter's state kept (the frame is cross-origin
 * isolated, so it has the interrupt buffer).
 */
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { codeInterpreterEventTypes, THINK_PYTHON_ANSWER_EVENTS } from '../../support/builtin-tool-events';
import { configureFirefoxRuntime, HAVE_FIREFOX, NO_FIREFOX, openAppInFirefox, pageErrors, startFirefoxE2E } from '../../support/firefox';
import { serveFixtureWeb, type FixtureWeb } from '../../support/fixture-web';
import { expectEveryEscapeFailed, sandboxEscapeCode } from '../../support/sandbox-escapes';

const TIME_LIMIT_MS = 3000;
const call = (code: string) => `<tool_call>${JSON.stringify({ name: 'python', arguments: { code } })}</tool_call>`;
const script = (steps: string[]) => JSON.stringify({ script: steps });
const tools = [{ type: 'code_interpreter', container: { type: 'auto' } }];
const include = ['code_interpreter_call.outputs'];

function logsOf(item: unknown): string {
  const outputs = (item as { outputs?: Array<{ type: string; logs?: string }> | null }).outputs ?? [];
  return outputs.map((o) => o.logs ?? '').join('');
}

describe.skipIf(!HAVE_FIREFOX)(HAVE_FIREFOX ? 'Firefox: Python in the sandbox' : `skipped: ${NO_FIREFOX}`, () => {
  let e2e: Awaited<ReturnType<typeof startFirefoxE2E>>;
  let web: FixtureWeb;
  let page: Page;
  let errors: string[];
  /** A response of the first test's conversation: its interpreter is up. */
  let chain: string | undefined;

  beforeAll(async () => {
    [e2e, web] = await Promise.all([startFirefoxE2E(), serveFixtureWeb()]);
    page = await openAppInFirefox(e2e.browser, e2e.app.origin, async (p) => {
      errors = pageErrors(p);
      await configureFirefoxRuntime(p, e2e.app.origin, { options: { tools: { python: { timeLimitMs: TIME_LIMIT_MS } } } });
    });
  });
  afterAll(async () => {
    await e2e?.close();
    await web?.close();
  });

  /** Creates a response in the page (as JSON text: the SDK's object is more than data). */
  async function create(body: { input: string; previous_response_id?: string }): Promise<Response> {
    const json = await page.evaluate(async (b) => JSON.stringify(await window.sdk!.responses.create({ model: 'test-scripted', ...b } as never)), { tools, include, ...body });
    return JSON.parse(json) as Response;
  }

  test('print(sum(range(10))): every event in order, logs 45, and the answer', async () => {
    const started = Date.now();
    const body = { tools, include, input: script([`<think>add</think>${call('print(sum(range(10)))')}`, 'The sum is 45.']) };
    const events = (await page.evaluate(async (b) => {
      const all: unknown[] = [];
      const stream = await window.sdk!.responses.create({ model: 'test-scripted', ...b, stream: true } as never);
      for await (const event of stream as unknown as AsyncIterable<unknown>) all.push(event);
      return all;
    }, body)) as ResponseStreamEvent[];
    console.log(`[firefox e2e] first python call (pyodide start included): ${Date.now() - started} ms`);
    expect(codeInterpreterEventTypes(events)).toEqual(THINK_PYTHON_ANSWER_EVENTS);
    const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
    expect(done.type).toBe('response.completed');
    expect(done.response.output[1]).toMatchObject({ type: 'code_interpreter_call', code: 'print(sum(range(10)))', status: 'completed', outputs: [{ type: 'logs', logs: '45\n' }] });
    expect(done.response.output_text).toBe('The sum is 45.');
    expect(errors).toEqual([]);
    chain = done.response.id;
  });

  test('sandbox: every escape attempt fails, as seen from Python', async () => {
    const before = web.requests.length;
    const code = sandboxEscapeCode({ app: e2e.app.origin, web: web.origin });
    const r = await create({ ...(chain ? { previous_response_id: chain } : {}), input: script([call(code), 'ok']) });
    expect(r.output[0]).toMatchObject({ status: 'completed' });
    const results = JSON.parse(logsOf(r.output[0])) as Record<string, string>;
    console.log('[firefox e2e] sandbox escape attempts:', JSON.stringify(results, null, 1));
    expectEveryEscapeFailed(results);
    expect(web.requests.slice(before)).toEqual([]);
    // Firefox reports each refusal of the sandbox's policy in the page's console; nothing else.
    expect(errors.filter((e) => !e.startsWith('Content-Security-Policy: The page’s settings blocked '))).toEqual([]);
    errors.length = 0;
  });

  test(`an endless loop is interrupted at the ${TIME_LIMIT_MS / 1000} s limit (KeyboardInterrupt), and the interpreter keeps its state`, async () => {
    const started = Date.now();
    const looped = await create({ ...(chain ? { previous_response_id: chain } : {}), input: script([call('x = 1\nwhile True: pass'), 'It took too long.']) });
    const elapsed = Date.now() - started;
    expect(looped.output[0]).toMatchObject({ type: 'code_interpreter_call', status: 'failed' });
    expect(logsOf(looped.output[0])).toContain('KeyboardInterrupt');
    expect(looped.output_text).toBe('It took too long.');
    expect(elapsed).toBeLessThan(TIME_LIMIT_MS + 5_000);
    const next = await create({ previous_response_id: looped.id, input: script([call('print("x" in globals(), x + 1)'), 'kept']) });
    expect(logsOf(next.output[0])).toBe('True 2\n');
    expect(errors).toEqual([]);
  });
});
