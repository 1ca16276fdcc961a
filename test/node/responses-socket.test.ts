/**
 * WebSocket mode of `/v1/responses`, in Node: the server's socket session (`openSocket`)
 * with a recording peer. Every frame is checked against the Open Responses document (stream
 * events, `WebSocketErrorEvent`); the transport into a page is tested in Chromium
 * (test/e2e/websocket.test.ts).
 */
import { afterEach, expect, test } from 'vitest';
import { checkEvent, closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';
import { validateWebSocketError } from '../support/openresponses-validator';
import { openTestSocket, type Frame } from '../support/socket-client';

let local: LocalClient | undefined;
afterEach(async () => {
  if (local) await closeAndCheck(local);
  local = undefined;
});

const model = 'test-scripted';

/** Checks each frame against the document and returns the terminal one. */
function terminal(frames: Frame[]): Frame {
  for (const frame of frames) {
    const { stream_id: _lane, ...event } = frame;
    if (event.type === 'error') validateWebSocketError(event);
    else checkEvent(event as Parameters<typeof checkEvent>[0]);
  }
  return frames.at(-1)!;
}
const responseOf = (frame: Frame) => frame.response as { id: string; status: string; output_text: string; store: boolean; output: Array<{ type: string }> };
const errorOf = (frame: Frame) => ({ status: frame.status, ...(frame.error as { code: string; param: string | null; message: string; type: string }) });

test('one turn: every stream event is a JSON frame, ending in response.completed; the response is an ordinary stored one', async () => {
  local = await localClient();
  const socket = openTestSocket(local.server);
  const frames = await socket.create({ model, input: 'Hello', stream: true });
  expect(frames.map((f) => f.type)).toEqual([
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.content_part.added',
    ...frames.filter((f) => f.type === 'response.output_text.delta').map(() => 'response.output_text.delta'),
    'response.output_text.done',
    'response.content_part.done',
    'response.output_item.done',
    'response.completed',
  ]);
  expect(frames.map((f) => f.sequence_number)).toEqual(frames.map((_, i) => i));
  const done = responseOf(terminal(frames));
  expect(done.output_text).toBe('You said: Hello');
  // Stored like any response: retrieve, input items, and a resume over HTTP replays the same events.
  const stored = await local.client.responses.retrieve(done.id);
  expect(stored.output_text).toBe('You said: Hello');
  expect((await local.client.responses.inputItems.list(done.id)).data).toHaveLength(1);
  const replay = [];
  for await (const event of await local.client.responses.retrieve(done.id, { stream: true })) replay.push(event);
  expect(replay.map((e) => e.type)).toEqual(frames.map((f) => f.type));
});

test('store: false chains continue on the connection (the cache), and on no other: previous_response_not_found', async () => {
  local = await localClient();
  const a = openTestSocket(local.server);
  const first = responseOf(terminal(await a.create({ model, store: false, input: 'Remember cobalt.' })));
  const second = terminal(await a.create({ model, store: false, previous_response_id: first.id, input: 'What was it?' }));
  expect(responseOf(second).status).toBe('completed');
  // The model was shown the first turn: the scripted model echoes the last user text only, so count the prompt.
  expect((second.response as { usage: { input_tokens: number } }).usage.input_tokens).toBeGreaterThan(10);
  await expect(local.client.responses.retrieve(first.id)).rejects.toMatchObject({ status: 404 });

  const b = openTestSocket(local.server);
  const missing = terminal(await b.create({ model, store: false, previous_response_id: first.id, input: 'Again?' }));
  expect(errorOf(missing)).toMatchObject({ status: 400, code: 'previous_response_not_found', param: 'previous_response_id' });
  // The connection stays usable.
  expect(responseOf(terminal(await b.create({ model, store: false, input: 'Fresh start' }))).status).toBe('completed');
});

test('a failed continuation evicts what it continued; a stored chain still resolves from storage', async () => {
  local = await localClient();
  const socket = openTestSocket(local.server);
  const first = responseOf(terminal(await socket.create({ model, store: false, input: 'Remember ember.' })));
  const failed = terminal(
    await socket.create({ model, store: false, previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: 'call_missing', output: 'x' }] }),
  );
  expect(errorOf(failed)).toMatchObject({ status: 400, param: 'input[0].call_id' });
  const stale = terminal(await socket.create({ model, store: false, previous_response_id: first.id, input: 'Still there?' }));
  expect(errorOf(stale).code).toBe('previous_response_not_found');

  const stored = responseOf(terminal(await socket.create({ model, input: 'Stored turn' })));
  expect(stored.store).toBe(true);
  const next = terminal(await socket.create({ model, store: false, previous_response_id: stored.id, input: 'Continue it' }));
  expect(responseOf(next).status).toBe('completed');
});

test('generate: false prepares a response without output that later turns continue (with input: [] too)', async () => {
  local = await localClient();
  const socket = openTestSocket(local.server);
  const warm = await socket.create({ model, generate: false, store: false, input: [], instructions: 'Be brief.' });
  expect(warm.map((f) => f.type)).toEqual(['response.created', 'response.completed']);
  const warmed = responseOf(terminal(warm));
  expect(warmed.output).toEqual([]);
  const turn = terminal(await socket.create({ model, store: false, previous_response_id: warmed.id, input: 'Go' }));
  expect(responseOf(turn).output_text).toBe('You said: Go');

  const stored = responseOf(terminal(await socket.create({ model, generate: false, input: 'Warm, stored' })));
  expect((await local.client.responses.retrieve(stored.id)).status).toBe('completed');
});

test('lanes: frames of one stream_id run in order, two lanes run together, a lane forks from another lane’s response', async () => {
  local = await localClient();
  const socket = openTestSocket(local.server);
  const slow = script('aaaa bbbb cccc dddd', { delay_ms: 15 });
  socket.send({ type: 'response.create', model, store: false, input: slow, stream_id: 'a' });
  socket.send({ type: 'response.create', model, store: false, input: 'second in a', stream_id: 'a' });
  socket.send({ type: 'response.create', model, store: false, input: slow, stream_id: 'b' });
  const [a1, a2, b1] = [await socket.turn('a'), await socket.turn('a'), await socket.turn('b')];
  for (const turn of [a1, a2, b1]) expect(responseOf(terminal(turn)).status).toBe('completed');
  expect(a1.every((f) => f.stream_id === 'a') && b1.every((f) => f.stream_id === 'b')).toBe(true);
  // FIFO within lane a: its second turn started after the first ended.
  const order = socket.frames.map((f) => `${f.stream_id}:${f.type}`);
  expect(order.indexOf('a:response.completed')).toBeLessThan(order.indexOf('a:response.created', order.indexOf('a:response.completed')));
  // Lanes are concurrent: b's turn was created while a's first turn was still running.
  expect(order.indexOf('b:response.created')).toBeLessThan(order.indexOf('a:response.completed'));
  expect((b1[0]!.response as { status: string }).status).toBe('queued');

  // A new lane continues lane a's latest response (its chain, from the cache).
  const fork = terminal(await socket.create({ model, store: false, previous_response_id: responseOf(a2.at(-1)!).id, input: 'forked' }, 'c'));
  expect(responseOf(fork).output_text).toBe('You said: forked');
  expect(fork.stream_id).toBe('c');
});

test('malformed frames get an error frame and the connection stays usable', async () => {
  local = await localClient();
  const socket = openTestSocket(local.server);
  const cases: Array<[object | string | ArrayBuffer, Record<string, unknown>]> = [
    ['{not json', { code: 'invalid_json' }],
    ['[1,2]', { code: 'invalid_type' }],
    [new TextEncoder().encode('{"type":"response.create"}').buffer as ArrayBuffer, { code: 'invalid_value' }],
    [{ type: 'response.cancel' }, { code: 'invalid_value', param: 'type' }],
    [{ type: 'response.create', model, input: 'x', background: true }, { param: 'background' }],
    [{ type: 'response.create', model, input: 'x', generate: 'no' }, { code: 'invalid_type', param: 'generate' }],
    [{ type: 'response.create', model: 'no-such-model', input: 'x' }, { status: 404, code: 'model_not_found' }],
    [{ type: 'response.create', model, input: 'x', temperature: 9 }, { param: 'temperature' }],
    [{ type: 'response.create', model, input: 'x', stream_id: 'lane', tool_choice: 'required' }, { param: 'tool_choice' }],
  ];
  for (const [frame, expected] of cases) {
    socket.send(frame);
    const lane = typeof frame === 'object' && !(frame instanceof ArrayBuffer) && 'stream_id' in frame ? String(frame.stream_id) : undefined;
    const [error] = await socket.turn(lane);
    expect(error!.type).toBe('error');
    validateWebSocketError(error!.stream_id ? { ...error, stream_id: undefined } : error);
    expect({ status: error!.status, ...(error!.error as object) }).toMatchObject({ status: 400, ...expected });
  }
  expect(responseOf(terminal(await socket.create({ model, input: 'still here', stream: true }))).output_text).toBe('You said: still here');
  expect(socket.closedWith).toBeNull();
});

test('the connection limit: a later turn is refused with websocket_connection_limit_reached and the connection closes (1000)', async () => {
  local = await localClient({ server: { socketLifetimeMs: 200 } });
  const socket = openTestSocket(local.server);
  socket.send({ type: 'response.create', model, store: false, input: script('slow answer', { delay_ms: 60, chunk: 2 }) });
  await new Promise((resolve) => setTimeout(resolve, 250));
  // Past the limit, the running turn still ends; a new one is refused, then the idle connection closes.
  socket.send({ type: 'response.create', model, store: false, input: 'too late' });
  // The refusal comes first (the running turn is still generating).
  const [refused, running] = [await socket.turn(), await socket.turn()];
  expect(responseOf(terminal(running)).status).toBe('completed');
  expect(errorOf(terminal(refused))).toMatchObject({ status: 400, code: 'websocket_connection_limit_reached' });
  expect(await socket.whenClosed()).toEqual({ code: 1000, reason: 'connection limit reached' });
});

test('the client end goes away mid-turn: the response stops as after an HTTP disconnect (incomplete)', async () => {
  local = await localClient();
  const socket = openTestSocket(local.server);
  socket.send({ type: 'response.create', model, input: script('x'.repeat(200), { delay_ms: 10, chunk: 1 }) });
  while (!socket.frames.some((f) => f.type === 'response.output_text.delta')) await new Promise((resolve) => setTimeout(resolve, 5));
  const id = responseOf(socket.frames[0]!).id;
  socket.listener.closed();
  await expect.poll(async () => (await local!.client.responses.retrieve(id)).status).toBe('incomplete');
  // Nothing more is sent to a closed connection.
  const sent = socket.frames.length;
  socket.send({ type: 'response.create', model, input: 'ignored' });
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect(socket.frames.length).toBe(sent);
});

test('only /v1/responses has a WebSocket mode: another URL is refused', async () => {
  local = await localClient();
  expect(() => local!.server.openSocket('ws://local.test/v1/realtime', { send() {}, close() {} })).toThrow(/WebSocket mode is \/v1\/responses/);
});

test('the runtime shutting down closes its connections with 1001 (going away)', async () => {
  local = await localClient();
  const socket = openTestSocket(local.server);
  expect(responseOf(terminal(await socket.create({ model, input: 'before', stream: true }))).output_text).toBe('You said: before');
  await local.server.close();
  expect(await socket.whenClosed()).toEqual({ code: 1001, reason: 'the local runtime is shutting down' });
});
