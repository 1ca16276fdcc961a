/**
 * The tool shapes today's agent SDKs declare, through the real SDK, `test-scripted` and the
 * real Qwen-family parser: `custom` tools (free-form input), `namespace` tools, client-run
 * `shell` / `local_shell` / `apply_patch`, assistant `phase`, and tool outputs with parts.
 * The model writes each call as a function in its own syntax (`<tool_call>{…}</tool_call>`);
 * the response carries OpenAI's call item, and the client's output goes back in.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';
import { RecordingEngine } from '../fakes/recording-engine';

let local: LocalClient | undefined;
afterEach(async () => {
  if (local) await closeAndCheck(local);
  local = undefined;
});

const model = 'test-scripted';
const call = (name: string, args: object) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
/** What the model was shown last: its rendered prompt. */
const lastPrompt = (engine: RecordingEngine) => engine.requests.at(-1)!.input.prompt;
const types = (items: Array<{ type: string }>) => items.map((i) => i.type);

async function events(stream: AsyncIterable<ResponseStreamEvent>) {
  const out: ResponseStreamEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

describe('custom tools', () => {
  const tools = [{ type: 'custom' as const, name: 'run_sql', description: 'Run one SQL query.' }];

  test('declared as a function of one string `input`; the call is a custom_tool_call with its input events; its output goes back in', async () => {
    const engine = new RecordingEngine();
    local = await localClient({ engine });
    const input = script([call('run_sql', { input: 'SELECT 1;' }), 'The query returned 1.']);
    const streamed = await events(await local.client.responses.create({ model, input, tools, stream: true }));
    expect(lastPrompt(engine)).toContain('"name": "run_sql"');
    expect(lastPrompt(engine)).toContain('"input": {"type": "string"}');
    const first = streamed.find((e) => e.type === 'response.completed')!.response;
    const item = first.output[0]!;
    expect(item).toMatchObject({ type: 'custom_tool_call', name: 'run_sql', input: 'SELECT 1;', status: 'completed' });
    expect(streamed.map((e) => e.type).filter((t) => t.startsWith('response.custom_tool_call_input') || t.startsWith('response.output_item'))).toEqual([
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
    ]);
    expect(streamed.find((e) => e.type === 'response.custom_tool_call_input.done')).toMatchObject({ input: 'SELECT 1;' });
    const callId = (item as { call_id: string }).call_id;

    const second = await local.client.responses.create({ model, previous_response_id: first.id, input: [{ type: 'custom_tool_call_output', call_id: callId, output: '1' }], tools });
    expect(second.output_text).toBe('The query returned 1.');
    // The model saw its call and the output, in its own syntax.
    expect(lastPrompt(engine)).toContain('{"name": "run_sql", "arguments": {"input": "SELECT 1;"}}');
    expect(lastPrompt(engine)).toContain('<tool_response>\n1\n</tool_response>');
    expect(types((await local.client.responses.inputItems.list(second.id)).data)).toEqual(['custom_tool_call_output']);
  });

  test('an output for no custom call of the chain is a 400; tool_choice names a custom tool', async () => {
    local = await localClient();
    const err = await local.client.responses
      .create({ model, input: [{ type: 'custom_tool_call_output', call_id: 'call_nope', output: 'x' }], tools })
      .catch((e: unknown) => e as { status: number; error: { param: string; message: string } });
    expect(err).toMatchObject({ status: 400, error: { param: 'input[0].call_id', message: 'No tool call found for custom tool call output with call_id call_nope.' } });
    const forced = await local.client.responses.create({ model, input: script(call('run_sql', { input: 'x' })), tools, tool_choice: { type: 'custom', name: 'run_sql' } });
    expect(forced.tool_choice).toEqual({ type: 'custom', name: 'run_sql' });
    const missing = await local.client.responses.create({ model, input: 'x', tools, tool_choice: { type: 'custom', name: 'other' } }).catch((e: unknown) => e as { status: number });
    expect(missing).toMatchObject({ status: 400 });
  });
});

describe('namespace tools', () => {
  const tools = [
    {
      type: 'namespace' as const,
      name: 'crm',
      description: 'Customer records.',
      tools: [
        { type: 'function' as const, name: 'lookup', description: 'Find a customer', parameters: { type: 'object', properties: { email: { type: 'string' } } } },
        { type: 'function' as const, name: 'note', parameters: { type: 'object', properties: { text: { type: 'string' } } } },
      ],
    },
    { type: 'function' as const, name: 'lookup', parameters: { type: 'object', properties: {} }, strict: false },
  ];

  test('a namespace’s function is `<namespace>__<name>` to the model; the call carries its own name and namespace; the output goes back', async () => {
    const engine = new RecordingEngine();
    local = await localClient({ engine });
    const response = await local.client.responses.create({ model, input: script([call('crm__lookup', { email: 'a@b.c' }), 'Found.']), tools });
    expect(lastPrompt(engine)).toContain('"name": "crm__lookup"');
    expect(lastPrompt(engine)).toContain('Customer records. Find a customer');
    expect(response.output[0]).toMatchObject({ type: 'function_call', name: 'lookup', namespace: 'crm', arguments: '{"email":"a@b.c"}' });
    const callId = (response.output[0] as { call_id: string }).call_id;
    const next = await local.client.responses.create({ model, previous_response_id: response.id, tools, input: [{ type: 'function_call_output', call_id: callId, output: 'alice', namespace: 'crm' } as never] });
    expect(next.output_text).toBe('Found.');
    expect(lastPrompt(engine)).toContain('{"name": "crm__lookup", "arguments": {"email": "a@b.c"}}');
  });

  test('tool_choice names a namespaced function as `<namespace>.<name>`; allowed_tools reaches across namespaces', async () => {
    const engine = new RecordingEngine();
    local = await localClient({ engine });
    await local.client.responses.create({ model, input: 'x', tools, tool_choice: { type: 'function', name: 'crm.note' } });
    expect(engine.requests.at(-1)!.toolChoice).toEqual({ name: 'crm__note' });
    await local.client.responses.create({ model, input: 'x', tools, tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'crm.note' }, { type: 'function', name: 'lookup' }] } });
    const prompt = lastPrompt(engine);
    expect(prompt).toContain('"name": "crm__note"');
    expect(prompt).not.toContain('"name": "crm__lookup"');
    expect(prompt).toContain('"name": "lookup"');
    await local.client.responses.create({ model, input: 'x', tools, tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'namespace', name: 'crm' } as never] } });
    expect(lastPrompt(engine)).toContain('"name": "crm__lookup"');
    const bad = await local.client.responses.create({ model, input: 'x', tools, tool_choice: { type: 'function', name: 'crm.nope' } }).catch((e: unknown) => e as { status: number });
    expect(bad).toMatchObject({ status: 400 });
  });

  test('two tools the model would call by one name are a 400', async () => {
    local = await localClient();
    const clash = [
      { type: 'namespace' as const, name: 'a', description: 'A', tools: [{ type: 'function' as const, name: 'b' }] },
      { type: 'function' as const, name: 'a__b', parameters: null, strict: false },
    ];
    await expect(local.client.responses.create({ model, input: 'x', tools: clash as never })).rejects.toMatchObject({ status: 400, error: { param: 'tools[1]' } });
  });
});

describe('client-run shell, local_shell and apply_patch', () => {
  test('shell (local environment): a shell_call with the commands; the shell_call_output goes back as the results', async () => {
    const engine = new RecordingEngine();
    local = await localClient({ engine });
    const tools = [{ type: 'shell' as const, environment: { type: 'local' as const } }];
    const first = await local.client.responses.create({ model, input: script([call('shell', { commands: ['ls', 'cat a.txt'], timeout_ms: 5000 }), 'There is a.txt.']), tools });
    expect(first.output[0]).toMatchObject({ type: 'shell_call', action: { commands: ['ls', 'cat a.txt'], timeout_ms: 5000, max_output_length: null }, environment: { type: 'local' }, status: 'completed' });
    const callId = (first.output[0] as { call_id: string }).call_id;
    const output = [
      { stdout: 'a.txt\n', stderr: '', outcome: { type: 'exit' as const, exit_code: 0 } },
      { stdout: '', stderr: 'denied', outcome: { type: 'timeout' as const } },
    ];
    const next = await local.client.responses.create({ model, previous_response_id: first.id, tools, input: [{ type: 'shell_call_output', call_id: callId, output }] });
    expect(next.output_text).toBe('There is a.txt.');
    expect(lastPrompt(engine)).toContain('a.txt\n\n(exit code 0)\n\nstderr:\ndenied\n(timed out)');
  });

  test('a shell call without commands stays text (the model did not make a call)', async () => {
    local = await localClient();
    const response = await local.client.responses.create({ model, input: script(call('shell', { command: 'ls' })), tools: [{ type: 'shell', environment: { type: 'local' } }] });
    expect(types(response.output)).toEqual(['message']);
  });

  test('local_shell: a local_shell_call (exec); the output may name its call by call_id (the AI SDK) or by id (OpenAI’s type)', async () => {
    local = await localClient();
    const tools = [{ type: 'local_shell' as const }];
    const first = await local.client.responses.create({ model, input: script([call('local_shell', { command: ['ls', '-la'], working_directory: '/tmp' }), 'Listed.']), tools });
    const item = first.output[0] as { type: string; id: string; call_id: string; action: unknown };
    expect(item).toMatchObject({ type: 'local_shell_call', action: { type: 'exec', command: ['ls', '-la'], env: {}, working_directory: '/tmp' } });
    const byCallId = await local.client.responses.create({ model, previous_response_id: first.id, tools, input: [{ type: 'local_shell_call_output', call_id: item.call_id, output: '{"output":"x"}' } as never] });
    expect(byCallId.output_text).toBe('Listed.');
    const byId = await local.client.responses.create({ model, previous_response_id: first.id, tools, input: [{ type: 'local_shell_call_output', id: item.id, output: '{"output":"x"}' }] });
    expect(byId.output_text).toBe('Listed.');
    const listed = (await local.client.responses.inputItems.list(byId.id)).data[0] as { call_id: string };
    expect(listed.call_id).toBe(item.call_id);
  });

  test('apply_patch: an apply_patch_call with the operation; the apply_patch_call_output goes back', async () => {
    const engine = new RecordingEngine();
    local = await localClient({ engine });
    const tools = [{ type: 'apply_patch' as const }];
    const operation = { type: 'create_file', path: 'hello.txt', diff: '+Hello\n' };
    const first = await local.client.responses.create({ model, input: script([call('apply_patch', { operation }), 'Created.']), tools, tool_choice: { type: 'apply_patch' } });
    expect(first.output[0]).toMatchObject({ type: 'apply_patch_call', operation, status: 'completed' });
    expect(engine.requests.at(-1)!.toolChoice).toEqual({ name: 'apply_patch' });
    const callId = (first.output[0] as { call_id: string }).call_id;
    const next = await local.client.responses.create({ model, previous_response_id: first.id, tools, input: [{ type: 'apply_patch_call_output', call_id: callId, status: 'completed', output: 'wrote 1 line' }] });
    expect(next.output_text).toBe('Created.');
    expect(lastPrompt(engine)).toContain('Done: wrote 1 line');
  });

  test('hosted forms the runtime cannot provide are a 400 naming the tool', async () => {
    local = await localClient();
    const container = await local.client.responses.create({ model, input: 'x', tools: [{ type: 'shell', environment: { type: 'container_auto' } }] }).catch((e: unknown) => e as { status: number; error: { param: string; message: string } });
    expect(container).toMatchObject({ status: 400, error: { param: 'tools[0].environment' } });
    expect(container.error!.message).toMatch(/hosted container/);
    for (const tool of [{ type: 'image_generation' }]) {
      const refused = await local.client.responses.create({ model, input: 'x', tools: [tool as never] }).catch((e: unknown) => e as { status: number; error: { param: string } });
      expect(refused).toMatchObject({ status: 400, error: { param: 'tools[0].type' } });
    }
  });
});

describe('messages and outputs as clients send them', () => {
  test('an assistant message’s phase is kept and returned unchanged', async () => {
    local = await localClient();
    const response = await local.client.responses.create({
      model,
      input: [
        { type: 'message', role: 'assistant', phase: 'commentary', content: 'Checking.' },
        { type: 'message', role: 'assistant', phase: 'final_answer', content: 'Four.' },
        { role: 'user', content: 'Again?' },
      ],
    });
    const items = (await local.client.responses.inputItems.list(response.id, { order: 'asc' })).data as Array<{ phase?: string }>;
    expect(items.map((i) => i.phase ?? null)).toEqual(['commentary', 'final_answer', null]);
    // In a conversation too: its items keep the phase they were given.
    const conversation = await local.client.conversations.create({ items: [{ type: 'message', role: 'assistant', phase: 'commentary', content: 'Looking.' } as never] });
    await local.client.responses.create({ model, conversation: conversation.id, input: 'Go on' });
    const kept = (await local.client.conversations.items.list(conversation.id, { order: 'asc' })).data as Array<{ phase?: string }>;
    expect(kept.map((i) => i.phase ?? null)).toEqual(['commentary', null, null]);
  });

  test('function_call_output and custom_tool_call_output with text and file parts: a file is shown as its text, as in messages', async () => {
    const engine = new RecordingEngine();
    local = await localClient({ engine, files: true });
    const tools = [{ type: 'function' as const, name: 'snap', parameters: null, strict: false }, { type: 'custom' as const, name: 'grab' }];
    const first = await local.client.responses.create({ model, input: script([call('snap', {}) + call('grab', { input: 'x' }), 'Seen.']), tools });
    const [fn, custom] = first.output as Array<{ call_id: string }>;
    const file = { type: 'input_file' as const, file_data: 'data:text/plain;base64,aGVsbG8gZmlsZQ==', filename: 'a.txt' };
    const next = await local.client.responses.create({
      model,
      previous_response_id: first.id,
      tools,
      input: [
        { type: 'function_call_output', call_id: fn!.call_id, output: [{ type: 'input_text', text: 'a picture' }, file] },
        { type: 'custom_tool_call_output', call_id: custom!.call_id, output: [file] },
      ],
    });
    expect(next.output_text).toBe('Seen.');
    expect(lastPrompt(engine)).toContain('<tool_response>\na picture\n[File: a.txt]\nhello file\n[End of file: a.txt]\n</tool_response>');
    // Stored as sent (the file part, not its text).
    const stored = (await local.client.responses.inputItems.list(next.id, { order: 'asc' })).data[0] as { output: Array<{ type: string }> };
    expect(stored.output.map((p) => p.type)).toEqual(['input_text', 'input_file']);
    const byUrl = await local.client.responses
      .create({ model, previous_response_id: first.id, tools, input: [{ type: 'function_call_output', call_id: fn!.call_id, output: [{ type: 'input_file', file_url: 'https://example.com/a.pdf' }] }] })
      .catch((e: unknown) => e as { status: number; error: { param: string } });
    expect(byUrl).toMatchObject({ status: 400, error: { param: 'input[0].output[0].file_url' } });
  });
});

describe('custom tool grammars', () => {
  test('test-scripted cannot honour a grammar: a 400 naming the syntax, for a custom tool and a namespace’s', async () => {
    local = await localClient();
    const regex = { type: 'grammar' as const, syntax: 'regex' as const, definition: '\\d+' };
    const top = await local.client.responses.create({ model, input: 'x', tools: [{ type: 'custom', name: 'digits', format: regex }] }).catch((e: unknown) => e as { status: number; error: { param: string; code: string; message: string } });
    expect(top).toMatchObject({ status: 400, error: { param: 'tools[0].format.syntax', code: 'unsupported_parameter' } });
    expect(top.error!.message).toMatch(/regex grammar, which the model 'test-scripted' cannot be held to/);
    const lark = { type: 'grammar' as const, syntax: 'lark' as const, definition: 'start: "a"' };
    const inNamespace = await local.client.responses
      .create({ model, input: 'x', tools: [{ type: 'namespace', name: 'ns', description: 'd', tools: [{ type: 'custom', name: 'c', format: lark }] }] })
      .catch((e: unknown) => e as { status: number; error: { param: string } });
    expect(inNamespace).toMatchObject({ status: 400, error: { param: 'tools[0].tools[0].format.syntax' } });
    // A tool the model is not shown this turn is no obstacle.
    const off = await local.client.responses.create({ model, input: 'x', tools: [{ type: 'custom', name: 'digits', format: regex }], tool_choice: 'none' });
    expect(off.status).toBe('completed');
  });
});
