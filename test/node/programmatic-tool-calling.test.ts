/**
 * Programmatic tool calling through the real `openai` SDK: the scripted model calls `program`
 * with `{"code"}`; the program runs in QuickJS (in-process here: test/fakes/in-process-programs.ts;
 * the browser's worker is covered by test/e2e/programmatic-tool-calling.test.ts), calls
 * Python in place and client functions across requests, and ends in a `program_output`.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { FunctionTool, ResponseInputItem, ResponseStreamEvent, Tool } from 'openai/resources/responses/responses';
import type { CodeInterpreterPort } from '../../src/ports/tool-ports';
import { inProcessPrograms } from '../fakes/in-process-programs';
import { RecordingEngine } from '../fakes/recording-engine';
import { closeAndCheck, failed, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient;
let engine: RecordingEngine;
let ran: string[];
let opened: Array<{ closed: boolean }>;
afterEach(() => closeAndCheck(local));

const python: CodeInterpreterPort = {
  run: async (code, { signal }) => {
    ran.push(code);
    // `slow` runs until the call is stopped.
    if (code === 'slow') await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }));
    return { logs: `py:${code}`, images: [], error: null };
  },
};

async function setup(limits = {}, withPrograms = true) {
  engine = new RecordingEngine();
  ran = [];
  opened = [];
  local = await localClient({ engine, tools: { codeInterpreter: python, ...(withPrograms ? { programs: inProcessPrograms(limits, opened) } : {}) } });
}

const model = 'test-scripted';
const PTC = { type: 'programmatic_tool_calling' } as Tool;
const weather: FunctionTool = { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false, allowed_callers: ['programmatic'] };
const pythonTool = { type: 'code_interpreter', container: { type: 'auto' }, allowed_callers: ['programmatic'] } as Tool;
const program = (code: string) => `<tool_call>${JSON.stringify({ name: 'program', arguments: { code } })}</tool_call>`;
const types = (items: ReadonlyArray<{ type: string }>) => items.map((i) => i.type);
const lastPrompt = () => engine.requests.at(-1)!.input.prompt;

describe('programmatic tool calling', () => {
  test('a program calls Python in place; its return value is the program_output, streamed and stored', async () => {
    await setup();
    const events: ResponseStreamEvent[] = [];
    const code = 'const a = await tools.python({code: "1+1"}); const b = await tools.python({code: "2+2"}); return {a, b};';
    for await (const e of await local.client.responses.create({ model, input: script([program(code), 'Done.']), tools: [PTC, pythonTool], stream: true })) events.push(e);
    const added = events.filter((e) => e.type === 'response.output_item.added').map((e) => (e as { item: { type: string } }).item.type);
    expect(added).toEqual(['program', 'program_output', 'message']);
    const completed = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
    expect(completed.type).toBe('response.completed');
    const [prog, output] = completed.response.output as unknown as [{ type: string; call_id: string; code: string; fingerprint: string }, { call_id: string; result: string; status: string }];
    expect(prog).toMatchObject({ type: 'program', code, fingerprint: expect.stringMatching(/^fp_/) });
    expect(output).toMatchObject({ type: 'program_output', call_id: prog.call_id, status: 'completed' });
    expect(JSON.parse(output.result)).toEqual({ a: expect.stringContaining('py:1+1'), b: expect.stringContaining('py:2+2') });
    expect(ran).toEqual(['1+1', '2+2']);
    // The model is shown its program and the result, not the calls inside it.
    expect(lastPrompt()).toContain('py:2+2');
    const stored = await local.client.responses.retrieve(completed.response.id);
    expect(types(stored.output)).toEqual(['program', 'program_output', 'message']);
    // Python only a program may call is not the model's: its function is not in the prompt.
    expect(engine.requests[0]!.input.prompt).not.toMatch(/"name":\s*"python"/);
    expect(opened).toEqual([{ closed: true }]);
  });

  test('a client function called from a program waits for the client, and the program resumes with its output (previous_response_id)', async () => {
    await setup();
    const code = 'const w = await tools.get_weather({city: "Paris"}); const v = await tools.get_weather({city: "Rome"}); return w + " / " + v;';
    const first = await local.client.responses.create({ model, input: script([program(code), 'It is sunny.']), tools: [PTC, weather] });
    expect(types(first.output)).toEqual(['program', 'function_call']);
    const prog = first.output[0] as unknown as { call_id: string };
    const call = first.output[1] as Extract<(typeof first.output)[number], { type: 'function_call' }>;
    expect(call).toMatchObject({ name: 'get_weather', arguments: '{"city":"Paris"}', caller: { type: 'program', caller_id: prog.call_id }, status: 'completed' });
    // The model is not told about a programmatic-only function.
    expect(engine.requests[0]!.input.prompt).toContain('tools.get_weather');
    expect(engine.requests[0]!.input.prompt).not.toMatch(/"name":\s*"get_weather"/);

    const second = await local.client.responses.create({ model, previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'sunny' }], tools: [PTC, weather] });
    expect(types(second.output)).toEqual(['function_call']);
    const call2 = second.output[0] as typeof call;
    expect(call2).toMatchObject({ arguments: '{"city":"Rome"}', caller: { type: 'program', caller_id: prog.call_id } });

    const third = await local.client.responses.create({ model, previous_response_id: second.id, input: [{ type: 'function_call_output', call_id: call2.call_id, output: 'rain' }], tools: [PTC, weather] });
    expect(types(third.output)).toEqual(['program_output', 'message']);
    expect(third.output[0]).toMatchObject({ call_id: prog.call_id, result: '"sunny / rain"', status: 'completed' });
    expect(third.output_text).toBe('It is sunny.');
    // The model saw its program and the result; the program's own calls are not shown to it.
    const prompt = lastPrompt();
    expect(prompt).toContain('sunny / rain');
    expect(prompt).not.toContain('"name": "get_weather"');
    expect(prompt).not.toMatch(/<tool_response>\s*sunny\s*<\/tool_response>/);
    // Listed input items of the resumed response keep the caller.
    const items = await local.client.responses.inputItems.list(second.id);
    expect(items.data[0]).toMatchObject({ type: 'function_call_output', call_id: call.call_id });
  });

  test('calls made together are answered together: a turn missing one of them is a 400 naming it', async () => {
    await setup();
    const code = 'const [a, b] = await Promise.all([tools.get_weather({city: "A"}), tools.get_weather({city: "B"})]); return a + b;';
    const first = await local.client.responses.create({ model, input: script([program(code), 'Both.']), tools: [PTC, weather] });
    expect(types(first.output)).toEqual(['program', 'function_call', 'function_call']);
    const [, a, b] = first.output as Array<{ call_id: string }>;
    const partial = await failed(local.client.responses.create({ model, previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: a!.call_id, output: '1' }], tools: [PTC, weather] }));
    expect(partial.status).toBe(400);
    expect(partial.message).toContain(b!.call_id);
    const both = await local.client.responses.create({
      model,
      previous_response_id: first.id,
      input: [
        { type: 'function_call_output', call_id: b!.call_id, output: '2' },
        { type: 'function_call_output', call_id: a!.call_id, output: '1' },
      ],
      tools: [PTC, weather],
    });
    expect(both.output[0]).toMatchObject({ type: 'program_output', result: '"12"' });
  });

  test('an output for a program’s call in a request without the programmatic_tool_calling tool is a 400', async () => {
    await setup();
    const first = await local.client.responses.create({ model, input: script([program('return await tools.get_weather({});'), 'Ok.']), tools: [PTC, weather] });
    const call = first.output[1] as { call_id: string };
    const err = await failed(local.client.responses.create({ model, previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'x' }] }));
    expect(err.status).toBe(400);
    expect(err.param).toBe('input[0].call_id');
    expect(err.message).toContain('programmatic_tool_calling');
  });

  test('in a conversation, and with a namespace function', async () => {
    await setup();
    const conversation = await local.client.conversations.create({});
    const ns = { type: 'namespace', name: 'crm', description: 'The CRM.', tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' }, allowed_callers: ['programmatic', 'direct'] }] } as unknown as Tool;
    const first = await local.client.responses.create({ model, input: script([program('return (await tools.crm.lookup({id: 7})).toUpperCase();'), 'Found.']), tools: [PTC, ns], conversation: conversation.id });
    const call = first.output[1] as Extract<(typeof first.output)[number], { type: 'function_call' }>;
    expect(call).toMatchObject({ type: 'function_call', name: 'lookup', namespace: 'crm', arguments: '{"id":7}' });
    // Callable directly as well: the model is told about it.
    expect(engine.requests[0]!.input.prompt).toContain('crm__lookup');
    const second = await local.client.responses.create({ model, conversation: conversation.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'ada' }], tools: [PTC, ns] });
    expect(second.output[0]).toMatchObject({ type: 'program_output', result: '"ADA"', status: 'completed' });
    const items = await local.client.conversations.items.list(conversation.id, { order: 'asc' });
    expect(types(items.data)).toEqual(['message', 'program', 'function_call', 'function_call_output', 'program_output', 'message']);
  });

  test('a program that throws or hits a limit ends incomplete with the error; the model is told', async () => {
    // Time enough for the memory bomb to reach its limit first on a busy machine.
    await setup({ cpuMs: 2000, memoryBytes: 8 * 1024 * 1024 });
    const thrown = await local.client.responses.create({ model, input: script([program('throw new Error("boom");'), 'Oops.']), tools: [PTC] });
    expect(thrown.output[1]).toMatchObject({ type: 'program_output', status: 'incomplete', result: 'Error: boom (line 1)' });
    expect(lastPrompt()).toContain('The program stopped: Error: boom');
    const loop = await local.client.responses.create({ model, input: script([program('for (;;) {}'), 'Oops.']), tools: [PTC] });
    expect(loop.output[1]).toMatchObject({ status: 'incomplete', result: expect.stringMatching(/CPU time limit/) });
    const bomb = await local.client.responses.create({ model, input: script([program('const a = []; for (let i = 0; ; i++) a.push({i});'), 'Oops.']), tools: [PTC] });
    expect(bomb.output[1]).toMatchObject({ status: 'incomplete', result: expect.stringMatching(/out of memory/) });
    const escape = await local.client.responses.create({
      model,
      input: script([program('return ["fetch","XMLHttpRequest","importScripts","indexedDB","caches","localStorage","document","self","navigator"].filter((n) => n in globalThis);'), 'Ok.']),
      tools: [PTC],
    });
    expect(escape.output[1]).toMatchObject({ status: 'completed', result: '[]' });
  });

  test('program items go back in as input (a client keeping its own history) and are never run again', async () => {
    await setup();
    const first = await local.client.responses.create({ model, input: script([program('return 6 * 7;'), 'It is 42.']), tools: [PTC], store: false });
    expect(types(first.output)).toEqual(['program', 'program_output', 'message']);
    const replay = [...(first.output as unknown as ResponseInputItem[]), { role: 'user' as const, content: 'And now?' }];
    const second = await local.client.responses.create({ model, input: replay, tools: [PTC], store: false });
    expect(second.output_text).toBe('You said: And now?');
    expect(lastPrompt()).toContain('6 * 7');
    expect(lastPrompt()).toContain('42');
    expect(opened).toHaveLength(1);
    const bad = await failed(local.client.responses.create({ model, input: [{ type: 'program_output', call_id: 'c', result: 1, status: 'completed' } as unknown as ResponseInputItem] }));
    expect(bad.status).toBe(400);
    expect(bad.param).toMatch(/^input\[0\]/);
  });

  test('a program whose state was lost says so when its function outputs come back', async () => {
    await setup();
    const first = await local.client.responses.create({ model, input: script([program('return await tools.get_weather({});'), 'Hm.']), tools: [PTC, weather] });
    const call = first.output[1] as Extract<(typeof first.output)[number], { type: 'function_call' }>;
    // Replayed without the stored chain, to a runtime that never kept the program.
    const items = [...(first.output as unknown as ResponseInputItem[]), { type: 'function_call_output' as const, call_id: call.call_id, output: 'x' }];
    await local.server.close();
    await setup();
    const second = await local.client.responses.create({ model, input: [{ role: 'user', content: script([program('1'), 'Lost.']) }, ...items], tools: [PTC, weather] });
    expect(second.output[0]).toMatchObject({ type: 'program_output', status: 'incomplete', result: expect.stringMatching(/state was lost/) });
  });

  test('cancelling a response stops its program (and the tool call it waits on)', async () => {
    await setup();
    const started = await local.client.responses.create({ model, input: script([program('await tools.python({code: "slow"}); return 1;'), 'x']), tools: [PTC, pythonTool], background: true });
    for (let i = 0; i < 200 && !ran.includes('slow'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(ran).toEqual(['slow']);
    const cancelled = await local.client.responses.cancel(started.id);
    expect(cancelled.status).toBe('cancelled');
    expect(opened).toEqual([{ closed: true }]);
  });

  test('tool_choice {type: "programmatic_tool_calling"} forces a program; without the tool it is a 400', async () => {
    await setup();
    const forced = await local.client.responses.create({ model, input: script([program('return "forced";'), 'Ok.']), tools: [PTC], tool_choice: { type: 'programmatic_tool_calling' } });
    expect(engine.requests[0]!.toolChoice).toEqual({ name: 'program' });
    expect(forced.tool_choice).toEqual({ type: 'programmatic_tool_calling' });
    expect(forced.output[1]).toMatchObject({ result: '"forced"' });
    const missing = await failed(local.client.responses.create({ model, input: 'hi', tools: [weather], tool_choice: { type: 'programmatic_tool_calling' } }));
    expect(missing.status).toBe(400);
    expect(missing.param).toBe('tool_choice');
  });

  test('without a sandbox the tool is a 400; programmatic callers on a custom tool too', async () => {
    await setup({}, false);
    const err = await failed(local.client.responses.create({ model, input: 'hi', tools: [PTC] }));
    expect(err.status).toBe(400);
    expect(err.param).toBe('tools[0].type');
    const custom = await failed(local.client.responses.create({ model, input: 'hi', tools: [{ type: 'custom', name: 'x', allowed_callers: ['programmatic'] } as Tool] }));
    expect(custom.status).toBe(400);
  });
});
