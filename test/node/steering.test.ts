/**
 * Steering over the WebSocket (issue 33, item 5), through the `openai` SDK's WebSocket client
 * (`ResponsesWSBase`, connected in memory: test/support/sdk-socket.ts): `response.steer` on a
 * running response → `response.steer.accepted`, the response ends `incomplete` (`steered`) with
 * its output so far, and its successor starts at once on the same lane, chained to it; the
 * failures and `response.steer.pending` as the SDK's types define them.
 */
import { afterEach, expect, test } from 'vitest';
import type { Response, ResponsesServerEvent } from 'openai/resources/responses/responses';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';
import { MemoryResponsesWS, recordEvents } from '../support/sdk-socket';

let local: LocalClient;
let ws: MemoryResponsesWS | undefined;
afterEach(async () => {
  ws?.close();
  ws = undefined;
  await closeAndCheck(local);
});

const model = 'test-scripted';
const slow = script('x'.repeat(300), { delay_ms: 10, chunk: 1 });
type Of<T extends ResponsesServerEvent['type']> = Extract<ResponsesServerEvent, { type: T }>;
const is =
  <T extends ResponsesServerEvent['type']>(type: T, where: (e: Of<T>) => boolean = () => true) =>
  (e: ResponsesServerEvent): boolean =>
    e.type === type && where(e as Of<T>);

async function open() {
  local = await localClient();
  ws = new MemoryResponsesWS(local.client, local.server);
  return recordEvents(ws);
}

test('a running streamed response is steered: accepted, ends incomplete (steered) keeping its output, the successor runs at once on its lane, chained', async () => {
  const rec = await open();
  ws!.send({ type: 'response.create', model, input: slow, stream_id: 'main' });
  const created = (await rec.until(is('response.created'))) as Of<'response.created'>;
  const target = created.response.id;
  await rec.until(is('response.output_text.delta'));
  ws!.send({ type: 'response.steer', previous_response_id: target, input: 'Actually, answer in French.' });

  const accepted = (await rec.until(is('response.steer.accepted'))) as Of<'response.steer.accepted'>;
  expect(accepted.steer).toEqual({ id: expect.stringMatching(/^steer_/), previous_response_id: target });
  expect(accepted.stream_id).toBe('main');
  expect(typeof accepted.sequence_number).toBe('number');

  const incomplete = (await rec.until(is('response.incomplete'))) as Of<'response.incomplete'>;
  expect(incomplete.response).toMatchObject({ id: target, status: 'incomplete', incomplete_details: { reason: 'steered' } });
  const partial = incomplete.response.output_text;
  expect(partial.length).toBeGreaterThan(0);
  expect(partial.length).toBeLessThan(300);
  expect(incomplete.response.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });

  // The successor: created right after, chained to the steered response, on the same lane, with the steer input.
  const at = rec.events.indexOf(incomplete);
  const next = (await rec.until(is('response.created'), at)) as Of<'response.created'>;
  expect(next.stream_id).toBe('main');
  expect(next.response.previous_response_id).toBe(target);
  const done = (await rec.until(is('response.completed', (e) => e.response.id === next.response.id), at)) as Of<'response.completed'>;
  expect(done.response.output_text).toBe('You said: Actually, answer in French.');
  expect(done.response.model).toBe(model);

  // Stored, both: the steered one with its partial output; the successor's input is the steer input.
  const stored: Response = await local.client.responses.retrieve(target);
  expect(stored).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'steered' }, output_text: partial });
  const items = (await local.client.responses.inputItems.list(next.response.id)).data;
  expect(items).toMatchObject([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Actually, answer in French.' }] }]);
  // The successor was shown the steered turn: it continues the chain.
  expect(done.response.usage!.input_tokens).toBeGreaterThan(30);
});

test('steers sent while the response waits for the engine are committed together, in submission order', async () => {
  const rec = await open();
  // Lane a holds the engine; lane b's response is queued behind it, and steered there.
  ws!.send({ type: 'response.create', model, store: false, input: script('a'.repeat(40), { delay_ms: 10, chunk: 1 }), stream_id: 'a' });
  ws!.send({ type: 'response.create', model, input: 'never answered', stream_id: 'b' });
  const queued = (await rec.until(is('response.created', (e) => e.stream_id === 'b'))) as Of<'response.created'>;
  expect(queued.response.status).toBe('queued');
  const target = queued.response.id;
  ws!.send({ type: 'response.steer', previous_response_id: target, input: [{ type: 'message', role: 'user', content: 'First.' }] });
  ws!.send({ type: 'response.steer', previous_response_id: target, input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Second.' }] }] });
  // At most 8 wait for one response.
  for (let i = 0; i < 7; i++) ws!.send({ type: 'response.steer', previous_response_id: target, input: i === 6 ? 'Ninth.' : 'Second.' });
  const tooMany = (await rec.until(is('response.steer.failed'))) as Of<'response.steer.failed'>;
  expect(tooMany.error.code).toBe('too_many_pending_steers');
  expect(tooMany.steer.input).toBe('Ninth.');
  expect(tooMany.stream_id).toBe('b');
  const steered = (await rec.until(is('response.incomplete', (e) => e.response.id === target))) as Of<'response.incomplete'>;
  expect(steered.response).toMatchObject({ incomplete_details: { reason: 'steered' }, output: [] });
  const done = (await rec.until(is('response.completed', (e) => e.response.previous_response_id === target))) as Of<'response.completed'>;
  expect(rec.events.filter((e) => e.type === 'response.steer.accepted')).toHaveLength(8);
  expect(done.stream_id).toBe('b');
  // The scripted model answers the last user message; both were its input, in order.
  expect(done.response.output_text).toBe('You said: Second.');
  const items = (await local.client.responses.inputItems.list(done.response.id, { order: 'asc' })).data as Array<{ content: Array<{ text: string }> }>;
  expect(items.map((i) => (typeof i.content === 'string' ? i.content : i.content[0]!.text))).toEqual(['First.', ...Array(7).fill('Second.')]);
});

test('failures: unknown response, invalid input, stream_id, finished response, a conversation’s response — each answered response.steer.failed with the input back', async () => {
  const rec = await open();
  const failure = async (frame: object) => {
    const from = rec.events.length;
    ws!.send(frame as never);
    return (await rec.until(is('response.steer.failed'), from, 3000)) as Of<'response.steer.failed'>;
  };
  const missing = await failure({ type: 'response.steer', previous_response_id: 'resp_nope', input: 'Hi' });
  expect(missing.error).toMatchObject({ code: 'response_not_found', type: 'invalid_request_error' });
  expect(missing.steer).toEqual({ input: 'Hi', previous_response_id: 'resp_nope' });

  expect((await failure({ type: 'response.steer', previous_response_id: 'resp_x', input: [{ role: 'assistant', content: 'no' }] })).error.code).toBe('invalid_input');
  expect((await failure({ type: 'response.steer', previous_response_id: 'resp_x', input: [] })).error.code).toBe('invalid_input');
  expect((await failure({ type: 'response.steer', previous_response_id: 'resp_x', input: [{ type: 'function_call_output', call_id: 'c', output: 'x' }] })).error.code).toBe('invalid_input');
  const laned = await failure({ type: 'response.steer', previous_response_id: 'resp_x', input: 'Hi', stream_id: 'a' });
  expect(laned.error).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('stream_id') });

  ws!.send({ type: 'response.create', model, input: 'quick' });
  const finished = ((await rec.until(is('response.completed'))) as Of<'response.completed'>).response.id;
  expect((await failure({ type: 'response.steer', previous_response_id: finished, input: 'late' })).error.code).toBe('response_already_completed');

  ws!.send({ type: 'response.create', model, generate: false, input: 'warm' } as never);
  const warm = ((await rec.until(is('response.completed', (e) => e.response.id !== finished))) as Of<'response.completed'>).response.id;
  expect((await failure({ type: 'response.steer', previous_response_id: warm, input: 'late' })).error.code).toBe('response_already_completed');

  const conversation = await local.client.conversations.create({});
  ws!.send({ type: 'response.create', model, input: script('z'.repeat(40), { delay_ms: 10, chunk: 1 }), conversation: conversation.id });
  const inConversation = ((await rec.until(is('response.created', (e) => e.response.conversation?.id === conversation.id))) as Of<'response.created'>).response.id;
  expect((await failure({ type: 'response.steer', previous_response_id: inConversation, input: 'steer me' })).error.code).toBe('steering_not_supported');
  // Not steered: it runs to the end.
  const end = (await rec.until(is('response.completed', (e) => e.response.id === inConversation))) as Of<'response.completed'>;
  expect(end.response.output_text).toBe('z'.repeat(40));
});

test('a response that stops for a function call keeps the input queued: response.steer.pending names the call; the client’s output goes on with the steer input first', async () => {
  const rec = await open();
  const weather = { type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false };
  const callThenTalk = script('<tool_call>{"name":"get_weather","arguments":{"city":"Oslo"}}</tool_call>' + 'y'.repeat(200), { delay_ms: 5, chunk: 2 });
  ws!.send({ type: 'response.create', model, input: callThenTalk, tools: [weather], stream_id: 'tools' });
  const target = ((await rec.until(is('response.created'))) as Of<'response.created'>).response.id;
  const call = (await rec.until(is('response.output_item.done', (e) => e.item.type === 'function_call'))) as Of<'response.output_item.done'>;
  const callId = (call.item as { call_id: string }).call_id;
  ws!.send({ type: 'response.steer', previous_response_id: target, input: 'Use Celsius.' });
  const accepted = (await rec.until(is('response.steer.accepted'))) as Of<'response.steer.accepted'>;

  const completed = (await rec.until(is('response.completed'))) as Of<'response.completed'>;
  // The call stands (the text the model had begun after it stops at the next token).
  expect(completed.response.output[0]).toMatchObject({ type: 'function_call', call_id: callId });
  const pending = (await rec.until(is('response.steer.pending'))) as Of<'response.steer.pending'>;
  expect(rec.events.indexOf(pending)).toBeGreaterThan(rec.events.indexOf(completed));
  expect(pending).toMatchObject({
    reason: 'waiting_for_required_input',
    required_input: [{ type: 'function_call_output', call_id: callId, name: 'get_weather' }],
    steer: accepted.steer,
    stream_id: 'tools',
  });
  // No automatic successor: the response waits for the client.
  expect(rec.events.filter((e) => e.type === 'response.created')).toHaveLength(1);

  ws!.send({ type: 'response.create', model, tools: [weather], previous_response_id: target, input: [{ type: 'function_call_output', call_id: callId, output: '-3 C' }], stream_id: 'tools' });
  const next = (await rec.until(is('response.completed', (e) => e.response.previous_response_id === target))) as Of<'response.completed'>;
  expect(next.response.output_text).toBe('You said: Use Celsius.');
  const items = (await local.client.responses.inputItems.list(next.response.id, { order: 'asc' })).data;
  expect(items.map((i) => i.type)).toEqual(['message', 'function_call_output']);
});
