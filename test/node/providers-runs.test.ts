/**
 * Responses on a remote model, through the real remote engine and a scripted upstream over
 * real HTTP: what each round sends (Chat Completions: messages, tools, tool outputs, limits),
 * what comes back (text, reasoning, tool calls from `tool_calls` fragments, usage, logprobs),
 * builtin tools run here, and the upstream's own lines beside the local engine's.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { CodeInterpreterPort } from '../../src/ports/tool-ports';
import { piecesOf, startFakeUpstream, type FakeUpstream, type Piece } from '../fakes/fake-upstream';
import { fakeMcp } from '../fakes/fake-mcp';
import { closeAndCheck, script, type LocalClient } from '../support/local-client';
import { addProvider, APP_ORIGIN, providerClient } from '../support/provider-client';
import { createPolicyImageFetcher } from '../../src/tools/web/image-fetcher';

let upstream: FakeUpstream;
let local: LocalClient;
beforeEach(async () => {
  upstream = await startFakeUpstream();
});
afterEach(async () => {
  await closeAndCheck(local);
  await upstream.close();
});

async function setup(extra: Record<string, unknown> = {}, options: Parameters<typeof providerClient>[0] = {}) {
  local = await providerClient(options);
  const added = await addProvider(local, { id: 'lab', base_url: upstream.baseUrl, ...extra });
  expect(added.status).toBe(200);
}

const posts = () => upstream.requests.filter((r) => r.method === 'POST');
const call = (index: number, id: string, name: string, args: string): Piece => ({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: args } }] });
const more = (index: number, args: string): Piece => ({ tool_calls: [{ index, function: { arguments: args } }] });

describe('a round as Chat Completions', () => {
  test('streams the upstream’s text as our events, with its usage; sends the conversation structured, never our rendered prompt', async () => {
    await setup();
    upstream.reply = () => ({ kind: 'chat', pieces: piecesOf('Hello <tool_call>{"name":"x"}</tool_call> there'), usage: { prompt_tokens: 21, completion_tokens: 9, total_tokens: 30, prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 0 } } });
    const stream = await local.client.responses.create({ model: 'lab/tiny', instructions: 'Be brief.', input: 'Hi', stream: true, max_output_tokens: 50, temperature: 0, top_p: 0.9, tools: [{ type: 'function', name: 'x', parameters: { type: 'object', properties: {} }, strict: false }] });
    const events: ResponseStreamEvent[] = [];
    for await (const e of stream) events.push(e);
    const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
    // A literal <tool_call> the upstream's model wrote is its text, not a call of ours.
    expect(done.response.output_text).toBe('Hello <tool_call>{"name":"x"}</tool_call> there');
    expect(done.response.output.map((i) => i.type)).toEqual(['message']);
    expect(done.response.usage).toEqual({ input_tokens: 21, input_tokens_details: { cached_tokens: 4, cache_write_tokens: 0 }, output_tokens: 9, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 30 });
    const sent = posts()[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.body).toEqual({
      model: 'tiny',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      tools: [{ type: 'function', function: { name: 'x', parameters: { type: 'object', properties: {} } } }],
      max_tokens: 50,
      temperature: 0,
      top_p: 0.9,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(JSON.stringify(sent.body)).not.toContain('<|im_start|>');
    expect(sent.headers.authorization).toBeUndefined();
  });

  test('reasoning in either field becomes a reasoning item; images go as content parts', async () => {
    await setup();
    upstream.reply = () => ({ kind: 'chat', pieces: [{ reasoning_content: 'Think ' }, { reasoning: 'hard.' }, 'Answer.'] });
    const image = 'data:image/png;base64,iVBORw0KGgo=';
    const response = await local.client.responses.create({
      model: 'lab/tiny',
      reasoning: { effort: 'low', summary: 'auto' },
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'What is this?' }, { type: 'input_image', image_url: image, detail: 'auto' }] }],
    });
    expect(response.output.map((i) => i.type)).toEqual(['reasoning', 'message']);
    expect(response.output[0]).toMatchObject({ content: [{ type: 'reasoning_text', text: 'Think hard.' }], summary: [{ text: 'Think hard.' }] });
    expect(response.output_text).toBe('Answer.');
    expect(response.usage?.output_tokens_details.reasoning_tokens).toBe(2);
    expect(posts()[0]!.body).toMatchObject({ reasoning_effort: 'low', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: image } }] }] });
  });

  test('an https: image goes upstream as the data: URL the runtime fetched: the upstream never fetches a URL a request names', async () => {
    const fetched: string[] = [];
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const fetch: typeof globalThis.fetch = async (input) => (fetched.push(String(input)), new Response(png, { headers: { 'content-type': 'image/png' } }));
    await setup({}, { imageFetcher: createPolicyImageFetcher({ policy: { appOrigin: APP_ORIGIN }, fetch }) });
    upstream.reply = () => ({ kind: 'chat', pieces: ['A dot.'] });
    const url = 'https://images.example/dot.png';
    await local.client.responses.create({ model: 'lab/tiny', input: [{ role: 'user', content: [{ type: 'input_text', text: 'What is this?' }, { type: 'input_image', image_url: url, detail: 'auto' }] }] });
    expect(fetched).toEqual([url]);
    expect(posts()[0]!.body).toMatchObject({ messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }] });
    expect(JSON.stringify(posts()[0]!.body)).not.toContain('images.example');
  });

  test('encrypted reasoning round-trips statelessly (store: false): the sealed item opens here and is not sent upstream', async () => {
    await setup();
    upstream.reply = () => ({ kind: 'chat', pieces: [{ reasoning_content: 'secret thought' }, 'Done.'] });
    const first = await local.client.responses.create({ model: 'lab/tiny', input: 'Hi', store: false, include: ['reasoning.encrypted_content'] });
    const reasoning = first.output.find((i) => i.type === 'reasoning') as { encrypted_content?: string };
    expect(reasoning.encrypted_content).toBeTruthy();
    const second = await local.client.responses.create({ model: 'lab/tiny', store: false, input: [{ role: 'user', content: 'Hi' }, ...first.output, { role: 'user', content: 'Again' }] as never });
    expect(second.status).toBe('completed');
    expect(posts()[1]!.body!.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Again' },
    ]);
  });

  test('truncation: "auto" drops the oldest turns to fit the context window the provider was given', async () => {
    await setup({ models: ['tiny'], context_window: 300 });
    let previous: string | undefined;
    for (let turn = 0; turn < 6; turn++) {
      const response = await local.client.responses.create({ model: 'lab/tiny', input: `Turn ${turn}: ${'word '.repeat(40)}`, truncation: 'auto', ...(previous ? { previous_response_id: previous } : {}) });
      expect(response.status).toBe('completed');
      previous = response.id;
    }
    const last = posts().at(-1)!.body!.messages as Array<{ content: string }>;
    expect(last.at(-1)!.content).toMatch(/^Turn 5:/);
    expect(last.some((m) => m.content.startsWith('Turn 0:'))).toBe(false);
  });

  test('a function call assembled from tool_calls fragments (id and name sent again, as llama.cpp does), and its output sent back', async () => {
    await setup();
    upstream.reply = (body) =>
      (body.messages as unknown[]).length === 1
        ? { kind: 'chat', finish: 'tool_calls', pieces: ['Let me look.', call(0, 'c1', 'get_weath', ''), call(0, 'c1', 'get_weather', '{"ci'), more(0, 'ty": "Paris"}'), call(1, 'c2', 'get_weather', '{"city":"Rome"}')] }
        : { kind: 'chat', pieces: ['Sunny in both.'] };
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false }];
    const first = await local.client.responses.create({ model: 'lab/tiny', input: 'Weather?', tools });
    expect(first.output.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call']);
    const calls = first.output.filter((i) => i.type === 'function_call');
    expect(calls.map((c) => [c.name, c.arguments])).toEqual([
      ['get_weather', '{"city":"Paris"}'],
      ['get_weather', '{"city":"Rome"}'],
    ]);
    const second = await local.client.responses.create({
      model: 'lab/tiny',
      previous_response_id: first.id,
      tools,
      input: calls.map((c) => ({ type: 'function_call_output' as const, call_id: c.call_id, output: c.arguments.includes('Paris') ? '21 C' : '25 C' })),
    });
    expect(second.output_text).toBe('Sunny in both.');
    expect(posts()[1]!.body!.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: calls.map((c) => ({ id: c.call_id, type: 'function', function: { name: 'get_weather', arguments: c.arguments } })),
      },
      { role: 'tool', tool_call_id: calls[0]!.call_id, content: '21 C' },
      { role: 'tool', tool_call_id: calls[1]!.call_id, content: '25 C' },
    ]);
  });

  test('a call of a tool the request does not enable, or with arguments that are not JSON, stays text', async () => {
    await setup();
    upstream.reply = () => ({ kind: 'chat', finish: 'tool_calls', pieces: [call(0, 'a', 'rm_rf', '{}'), call(1, 'b', 'get_weather', '{"city": ')] });
    const response = await local.client.responses.create({ model: 'lab/tiny', input: 'x', tools: [{ type: 'function', name: 'get_weather', parameters: {}, strict: false }] });
    expect(response.output.map((i) => i.type)).toEqual(['message']);
    expect(response.output_text).toBe('{"name":"rm_rf","arguments":{}}{"name":"get_weather","arguments":"{\\"city\\": "}');
  });

  test('builtin tools run here: the remote model calls python as a function, sees its output, answers', async () => {
    const ran: string[] = [];
    const python: CodeInterpreterPort = { run: async (code) => (ran.push(code), { logs: '4\n', images: [], error: null }) };
    await setup({}, { tools: { codeInterpreter: python } });
    upstream.reply = (body) =>
      (body.messages as Array<{ role: string }>).some((m) => m.role === 'tool') ? { kind: 'chat', pieces: ['It is 4.'] } : { kind: 'chat', finish: 'tool_calls', pieces: [call(0, 'p', 'python', '{"code":"print(2+2)"}')] };
    const response = await local.client.responses.create({ model: 'lab/tiny', input: '2+2?', tools: [{ type: 'code_interpreter', container: { type: 'auto' } }] });
    expect(ran).toEqual(['print(2+2)']);
    expect(response.output.map((i) => i.type)).toEqual(['code_interpreter_call', 'message']);
    expect(response.output_text).toBe('It is 4.');
    const [first, second] = posts();
    expect((first!.body!.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual(['python']);
    expect((second!.body!.messages as Array<{ role: string; content: unknown }>).at(-1)).toMatchObject({ role: 'tool' });
  });

  test('MCP with approval: the remote model calls the server’s tool as a function; the call waits for approval, runs here, and its output goes back upstream', async () => {
    const mcp = fakeMcp();
    await setup({}, { tools: { mcp } });
    upstream.reply = (body) =>
      (body.messages as Array<{ role: string }>).some((m) => m.role === 'tool') ? { kind: 'chat', pieces: ['Sum is 5.'] } : { kind: 'chat', finish: 'tool_calls', pieces: [call(0, 'm', 'calc__add', '{"a":2,"b":3}')] };
    const tools = [{ type: 'mcp' as const, server_label: 'calc', server_url: 'http://calc.test/mcp', require_approval: 'always' as const }];
    const first = await local.client.responses.create({ model: 'lab/tiny', input: '2+3?', tools });
    expect(first.output.map((i) => i.type)).toEqual(['mcp_list_tools', 'mcp_approval_request']);
    expect(mcp.calls).toEqual([]);
    const request = first.output[1] as { id: string };
    const second = await local.client.responses.create({ model: 'lab/tiny', previous_response_id: first.id, tools, input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }] });
    expect(mcp.calls.map((c) => [c.name, c.args])).toEqual([['add', { a: 2, b: 3 }]]);
    expect(second.output.map((i) => i.type)).toEqual(['mcp_call', 'message']);
    expect(second.output_text).toBe('Sum is 5.');
    expect((posts()[0]!.body!.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual(['calc__add', 'calc__shout']);
  });

  test('structured output, tool_choice naming a function, parallel_tool_calls and logprobs map onto their Chat fields', async () => {
    await setup();
    upstream.reply = () => ({ kind: 'chat', pieces: ['{"a":', '1}'], logprobs: true });
    const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'], additionalProperties: false };
    const tools = ['f', 'g'].map((name) => ({ type: 'function' as const, name, parameters: {}, strict: false }));
    const response = await local.client.responses.create({
      model: 'lab/tiny',
      input: 'json',
      text: { format: { type: 'json_schema', name: 'thing', schema, strict: true } },
      tools,
      tool_choice: { type: 'function', name: 'g' },
      parallel_tool_calls: false,
      top_logprobs: 1,
      include: ['message.output_text.logprobs'],
    });
    expect(response.output_text).toBe('{"a":1}');
    const part = (response.output[0] as { content: Array<{ logprobs: Array<{ token: string; top_logprobs: unknown[] }> }> }).content[0]!;
    expect(part.logprobs.map((l) => [l.token, l.top_logprobs.length])).toEqual([
      ['{"a":', 1],
      ['1}', 1],
    ]);
    expect(posts()[0]!.body).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { name: 'thing', schema } },
      tools: [{ function: { name: 'g' } }],
      tool_choice: 'required',
      parallel_tool_calls: false,
      logprobs: true,
      top_logprobs: 1,
    });
  });

  test('compaction: the same remote model writes the summary', async () => {
    await setup();
    upstream.reply = (body) => ({ kind: 'chat', pieces: [JSON.stringify(body.messages).includes('Summarize the conversation') ? 'SUMMARY: greetings.' : 'ok'] });
    const compacted = await local.client.responses.compact({ model: 'lab/tiny', input: [{ role: 'user', content: 'Hello' }, { role: 'assistant', content: 'Hi!' }, { role: 'user', content: 'Bye' }] });
    expect(compacted.output.at(-1)).toMatchObject({ type: 'compaction' });
    expect(posts()).toHaveLength(1);
    const next = await local.client.responses.create({ model: 'lab/tiny', input: [...compacted.output, { role: 'user', content: 'Again?' }] as never });
    expect(next.output_text).toBe('ok');
    expect(JSON.stringify(posts()[1]!.body)).toContain('SUMMARY: greetings.');
  });
});

describe('the Responses wire', () => {
  test('store: false and the whole input each round; output text, reasoning and function calls read from its events', async () => {
    await setup({ api: 'responses' });
    upstream.reply = () => ({
      kind: 'responses',
      events: [
        { type: 'response.created', response: {} },
        { type: 'response.reasoning_summary_text.delta', item_id: 'rs', output_index: 0, summary_index: 0, delta: 'Hmm.' },
        { type: 'response.output_item.done', output_index: 0, item: { type: 'reasoning', id: 'rs', summary: [] } },
        { type: 'response.output_text.delta', item_id: 'm', output_index: 1, content_index: 0, delta: 'Calling.', logprobs: [] },
        { type: 'response.output_item.done', output_index: 2, item: { type: 'function_call', id: 'fc', call_id: 'up', name: 'f', arguments: '{"x":1}' } },
        { type: 'response.completed', response: { usage: { input_tokens: 7, output_tokens: 5, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 2 }, total_tokens: 12 } } },
      ],
    });
    const response = await local.client.responses.create({ model: 'lab/tiny', instructions: 'Hi.', input: 'go', tools: [{ type: 'function', name: 'f', parameters: {}, strict: false }] });
    expect(response.output.map((i) => i.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(response.output.at(-1)).toMatchObject({ name: 'f', arguments: '{"x":1}' });
    expect(response.usage).toMatchObject({ input_tokens: 7, output_tokens: 5, output_tokens_details: { reasoning_tokens: 2 } });
    expect(posts()[0]).toMatchObject({ path: '/v1/responses', body: { model: 'tiny', store: false, stream: true, instructions: 'Hi.', input: [{ role: 'user', content: 'go' }] } });
    expect(posts()[0]!.body).not.toHaveProperty('previous_response_id');
  });
});

describe('lines', () => {
  test('a remote response does not wait for the local engine, nor the local one for it; a provider runs up to its concurrency at once', async () => {
    await setup({ concurrency: 2 });
    upstream.reply = () => ({ kind: 'chat', pieces: piecesOf('remote answer'), delayMs: 40 });
    const slowLocal = local.client.responses.create({ model: 'test-scripted', input: script('local answer', { delay_ms: 150 }) });
    const remote = await Promise.all([1, 2, 3].map(() => local.client.responses.create({ model: 'lab/tiny', input: 'hi' })));
    const localDone = await slowLocal;
    expect(remote.map((r) => r.output_text)).toEqual(['remote answer', 'remote answer', 'remote answer']);
    expect(localDone.output_text).toBe('local answer');
    // The remote ones finished while the local one was still generating.
    expect(Math.max(...remote.map((r) => r.completed_at ?? 0))).toBeLessThanOrEqual(localDone.completed_at ?? 0);
    expect(upstream.maxInFlight).toBe(2);
  });

  test('without a concurrency setting a provider runs 4 at once: a fifth request waits its turn', async () => {
    await setup();
    upstream.reply = () => ({ kind: 'chat', pieces: piecesOf('remote answer'), delayMs: 40 });
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => local.client.responses.create({ model: 'lab/tiny', input: 'hi' })));
    expect(answers.map((r) => r.status)).toEqual(Array(5).fill('completed'));
    expect(upstream.maxInFlight).toBe(4);
  });
});
