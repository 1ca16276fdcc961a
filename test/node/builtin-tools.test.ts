/**
 * The builtin-tool turn loop and its item/event mapping, with `test-scripted` scripting the
 * calls. The tool implementations are fakes at the ToolPorts boundary (the real pyodide and
 * fetch implementations are exercised in Chromium).
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { CodeInterpreterPort, ToolPorts, WebSearchPort } from '../../src/ports/tool-ports';
import { codeInterpreterEventTypes, THINK_PYTHON_ANSWER_EVENTS, WEB_SEARCH_CALL_EVENTS, webSearchEventTypes } from '../support/builtin-tool-events';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient;
afterEach(() => closeAndCheck(local));

/** A Python stand-in that keeps one variable store per container, enough to see state kept. */
function fakePython(calls: Array<{ code: string; containerId: string }>): CodeInterpreterPort {
  const state = new Map<string, Map<string, string>>();
  return {
    async run(code, { containerId }) {
      calls.push({ code, containerId });
      const vars = state.get(containerId) ?? new Map<string, string>();
      state.set(containerId, vars);
      const assign = /^(\w+) = (.+)$/.exec(code);
      if (assign) {
        vars.set(assign[1]!, assign[2]!);
        return { logs: '', images: [], error: null };
      }
      const print = /^print\((.+)\)$/.exec(code);
      if (print?.[1] === 'sum(range(10))') return { logs: '45\n', images: [], error: null };
      if (print && vars.has(print[1]!)) return { logs: `${vars.get(print[1]!)}\n`, images: [], error: null };
      if (code.includes('while True')) return { logs: '', images: [], error: 'Execution stopped after the 30 s time limit.' };
      return { logs: '', images: [], error: `NameError: name '${print?.[1] ?? code}' is not defined` };
    },
  };
}

const pages: Record<string, { title: string; text: string }> = {
  'http://127.0.0.1:9/wiki/Paris': { title: 'Paris', text: 'Paris is the capital of France.\nPopulation: 2.1 million.' },
};
const fakeWeb: WebSearchPort = {
  async search(query) {
    if (query === 'offline') throw new Error('the network is offline (TypeError: Failed to fetch)');
    return [{ url: 'http://127.0.0.1:9/wiki/Paris', title: 'Paris', snippet: 'Capital of France' }];
  },
  async openPage(url) {
    const page = pages[url];
    if (!page) throw new Error(`${url} answered 404`);
    return { url, ...page };
  },
  async findInPage(url, pattern) {
    return { url, matches: (pages[url]?.text ?? '').split('\n').filter((l) => l.toLowerCase().includes(pattern.toLowerCase())) };
  },
};

async function setup(tools: ToolPorts = {}, maxToolRounds?: number) {
  local = await localClient({ tools, ...(maxToolRounds ? { maxToolRounds } : {}) });
}

const call = (name: string, args: object) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
const codeInterpreter = { type: 'code_interpreter' as const, container: { type: 'auto' as const } };

async function collect(stream: AsyncIterable<ResponseStreamEvent>) {
  const out: ResponseStreamEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

describe('code_interpreter', () => {
  test('the model calls python, sees the output and answers; every event in order', async () => {
    const ran: Array<{ code: string; containerId: string }> = [];
    await setup({ codeInterpreter: fakePython(ran) });
    const events = await collect(
      await local.client.responses.create({
        model: 'test-scripted',
        input: script([`<think>add</think>${call('python', { code: 'print(sum(range(10)))' })}`, 'The sum is 45.']),
        tools: [codeInterpreter],
        include: ['code_interpreter_call.outputs'],
        stream: true,
      }),
    );
    expect(codeInterpreterEventTypes(events)).toEqual(THINK_PYTHON_ANSWER_EVENTS);
    const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
    expect(done.type).toBe('response.completed');
    expect(done.response.output.map((o) => o.type)).toEqual(['reasoning', 'code_interpreter_call', 'message']);
    expect(done.response.output[1]).toMatchObject({ code: 'print(sum(range(10)))', status: 'completed', outputs: [{ type: 'logs', logs: '45\n' }] });
    expect(done.response.output_text).toBe('The sum is 45.');
    expect(ran).toHaveLength(1);
    // Two model calls: both prompts are counted.
    expect(done.response.usage!.input_tokens).toBeGreaterThan(0);
  });

  test('outputs are shown only with include; retrieve honours include too', async () => {
    await setup({ codeInterpreter: fakePython([]) });
    const r = await local.client.responses.create({
      model: 'test-scripted',
      input: script([call('python', { code: 'print(sum(range(10)))' }), 'done']),
      tools: [codeInterpreter],
    });
    expect(r.output[0]).toMatchObject({ type: 'code_interpreter_call', outputs: null });
    const withOutputs = await local.client.responses.retrieve(r.id, { include: ['code_interpreter_call.outputs'] });
    expect(withOutputs.output[0]).toMatchObject({ outputs: [{ type: 'logs', logs: '45\n' }] });
  });

  test('Python state is kept across a previous_response_id turn (same container)', async () => {
    const ran: Array<{ code: string; containerId: string }> = [];
    await setup({ codeInterpreter: fakePython(ran) });
    const first = await local.client.responses.create({ model: 'test-scripted', input: script([call('python', { code: 'x = 41' }), 'stored']), tools: [codeInterpreter] });
    const second = await local.client.responses.create({
      model: 'test-scripted',
      previous_response_id: first.id,
      input: script([call('python', { code: 'print(x)' }), 'x is 41']),
      tools: [codeInterpreter],
      include: ['code_interpreter_call.outputs'],
    });
    expect(second.output[0]).toMatchObject({ type: 'code_interpreter_call', outputs: [{ type: 'logs', logs: '41\n' }] });
    expect(ran[0]!.containerId).toBe(ran[1]!.containerId);
    expect(ran[0]!.containerId).toMatch(/^cntr_/);
  });

  test('a failing call ends failed, the model is told, and the response still completes', async () => {
    await setup({ codeInterpreter: fakePython([]) });
    const r = await local.client.responses.create({
      model: 'test-scripted',
      input: script([call('python', { code: 'while True: pass' }), 'It took too long.']),
      tools: [codeInterpreter],
    });
    expect(r.status).toBe('completed');
    expect(r.output[0]).toMatchObject({ type: 'code_interpreter_call', status: 'failed' });
    expect(r.output_text).toBe('It took too long.');
  });

  test('rounds are bounded: a model that keeps calling ends incomplete', async () => {
    await setup({ codeInterpreter: fakePython([]) }, 3);
    const r = await local.client.responses.create({
      model: 'test-scripted',
      input: script([call('python', { code: 'print(sum(range(10)))' })]), // the last entry repeats forever
      tools: [codeInterpreter],
    });
    expect(r.status).toBe('incomplete');
    expect(r.output.filter((o) => o.type === 'code_interpreter_call')).toHaveLength(3);
  });

  test('a builtin and a client function call in one response: the builtin runs, the function goes back', async () => {
    await setup({ codeInterpreter: fakePython([]) });
    const r = await local.client.responses.create({
      model: 'test-scripted',
      input: script([call('python', { code: 'print(sum(range(10)))' }) + call('notify', { text: 'hi' }), 'never reached']),
      tools: [codeInterpreter, { type: 'function', name: 'notify', parameters: { type: 'object', properties: { text: { type: 'string' } } }, strict: false }],
    });
    expect(r.output.map((o) => o.type)).toEqual(['code_interpreter_call', 'function_call']);
    expect(r.status).toBe('completed');
  });

  test('the tool is unavailable without a runtime implementation (400)', async () => {
    await setup({});
    await expect(local.client.responses.create({ model: 'test-scripted', input: 'x', tools: [codeInterpreter] })).rejects.toMatchObject({
      status: 400,
      param: 'tools[0].type',
    });
  });

  test('the prompt describes only the enabled tools', async () => {
    await setup({ codeInterpreter: fakePython([]), webSearch: fakeWeb });
    const withPython = await local.client.responses.create({ model: 'test-scripted', input: 'x', tools: [codeInterpreter] });
    const plain = await local.client.responses.create({ model: 'test-scripted', input: 'x' });
    const both = await local.client.responses.create({ model: 'test-scripted', input: 'x', tools: [codeInterpreter, { type: 'web_search' }] });
    expect(withPython.usage!.input_tokens).toBeGreaterThan(plain.usage!.input_tokens);
    expect(both.usage!.input_tokens).toBeGreaterThan(withPython.usage!.input_tokens);
  });
});

describe('web_search', () => {
  test('search → open → find, with citations to the pages used', async () => {
    await setup({ webSearch: fakeWeb });
    const url = 'http://127.0.0.1:9/wiki/Paris';
    const events = await collect(
      await local.client.responses.create({
        model: 'test-scripted',
        input: script([
          call('search', { query: 'capital of France' }),
          call('open_page', { url }),
          call('find_in_page', { url, pattern: 'population' }),
          `Paris has 2.1 million people (source: ${url}).`,
        ]),
        tools: [{ type: 'web_search_preview' }],
        include: ['web_search_call.action.sources'],
        stream: true,
      }),
    );
    expect(webSearchEventTypes(events)).toEqual(Array(3).fill(WEB_SEARCH_CALL_EVENTS).flat());
    const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
    const actions = done.response.output.flatMap((o) => (o.type === 'web_search_call' ? [o.action] : []));
    expect(actions).toEqual([
      { type: 'search', query: 'capital of France', sources: [{ type: 'url', url }] },
      { type: 'open_page', url },
      { type: 'find_in_page', url, pattern: 'population' },
    ]);
    const message = done.response.output.at(-1);
    if (message?.type !== 'message' || message.content[0]?.type !== 'output_text') throw new Error('expected an answer');
    const text = message.content[0].text;
    expect(message.content[0].annotations).toEqual([{ type: 'url_citation', url, title: 'Paris', start_index: text.indexOf(url), end_index: text.indexOf(url) + url.length }]);
    expect(events.some((e) => e.type === 'response.output_text.annotation.added')).toBe(true);
  });

  test('offline: the call fails with the reason, the model is told, the response completes', async () => {
    await setup({ webSearch: fakeWeb });
    const r = await local.client.responses.create({
      model: 'test-scripted',
      input: script([call('search', { query: 'offline' }), 'I could not reach the web.']),
      tools: [{ type: 'web_search' }],
    });
    expect(r.status).toBe('completed');
    expect(r.output[0]).toMatchObject({ type: 'web_search_call', status: 'failed' });
    expect(r.output_text).toBe('I could not reach the web.');
  });
});
