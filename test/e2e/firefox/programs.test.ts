/**
 * Programmatic tool calling in Firefox, through the real `openai` SDK in the page: a program
 * runs in QuickJS inside its own worker (a worker the runtime worker starts), calls a client
 * function and resumes with its output in the next request, sees nothing of the browser, and
 * a CPU loop ends at its limit.
 */
import type { Response } from 'openai/resources/responses/responses';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { configureFirefoxRuntime, HAVE_FIREFOX, NO_FIREFOX, openAppInFirefox, pageErrors, startFirefoxE2E } from '../../support/firefox';

const PTC = { type: 'programmatic_tool_calling' };
const weather = { type: 'function', name: 'get_weather', parameters: { type: 'object' }, allowed_callers: ['programmatic'] };
const program = (code: string) => `<tool_call>${JSON.stringify({ name: 'program', arguments: { code } })}</tool_call>`;
const script = (steps: string[]) => JSON.stringify({ script: steps });
type Item = { type: string; call_id?: string; result?: string; status?: string; caller?: unknown };

describe.skipIf(!HAVE_FIREFOX)(HAVE_FIREFOX ? 'Firefox: programs in their QuickJS worker' : `skipped: ${NO_FIREFOX}`, () => {
  let e2e: Awaited<ReturnType<typeof startFirefoxE2E>>;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    e2e = await startFirefoxE2E();
    page = await openAppInFirefox(e2e.browser, e2e.app.origin, async (p) => {
      errors = pageErrors(p);
      await configureFirefoxRuntime(p, e2e.app.origin, { options: { tools: { programs: { timeLimitMs: 3000 } } } });
    });
  });
  afterAll(() => e2e?.close());

  async function create(body: object): Promise<Response> {
    const json = await page.evaluate(async (b) => JSON.stringify(await window.sdk!.responses.create({ model: 'test-scripted', ...b } as never)), body);
    return JSON.parse(json) as Response;
  }

  test('a client function called from a program; the program resumes with its output', async () => {
    const first = await create({ input: script([program('return "it is " + (await tools.get_weather({city: "Lyon"}));'), 'Done.']), tools: [PTC, weather] });
    expect(first.output.map((i) => i.type)).toEqual(['program', 'function_call']);
    const call = first.output[1] as Item;
    expect(call.caller).toMatchObject({ type: 'program' });
    const second = await create({ previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'mild' }], tools: [PTC, weather] });
    expect(second.output[0]).toMatchObject({ type: 'program_output', result: '"it is mild"', status: 'completed' });
    expect(second.output_text).toBe('Done.');
    expect(errors).toEqual([]);
  });

  test('nothing of the browser is there, and a CPU loop ends at its limit', async () => {
    const probe = await create({
      input: script([program('return ["fetch","XMLHttpRequest","importScripts","indexedDB","caches","localStorage","document","self","navigator","postMessage"].filter((n) => typeof globalThis[n] !== "undefined");'), 'Ok.']),
      tools: [PTC],
    });
    expect(probe.output[1]).toMatchObject({ result: '[]', status: 'completed' });
    const loop = await create({ input: script([program('for (;;) {}'), 'Stopped.']), tools: [PTC] });
    expect(loop.output[1]).toMatchObject({ status: 'incomplete', result: expect.stringMatching(/CPU time limit \(3 s\)/) });
  });
});
