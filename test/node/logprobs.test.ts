/**
 * Log probabilities (issue 13, item 3): `top_logprobs` + `include:
 * ["message.output_text.logprobs"]` through the real `openai` SDK. The scripted model's
 * rule (src/engine/scripted-engine.ts): token i has logprob -(i % 5)/10, its alternatives
 * are itself and `<alt k>` at -(i % 5)/10 - k.
 */
import { afterEach, expect, test } from 'vitest';
import type { ResponseOutputText, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { ScriptedEngine } from '../../src/engine/scripted-engine';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient | undefined;
afterEach(async () => {
  if (local) await closeAndCheck(local);
  local = undefined;
});

const model = 'test-scripted';
const include = ['message.output_text.logprobs' as const];
const bytes = (text: string) => [...new TextEncoder().encode(text)];
/** The scripted logprob of token `token` at output index `i`, with `top` alternatives. */
const expected = (token: string, i: number, top: number) => {
  const logprob = 0 - (i % 5) / 10;
  const alternatives = Array.from({ length: Math.max(0, top - 1) }, (_, k) => ({ token: `<alt ${k + 1}>`, logprob: logprob - (k + 1), bytes: bytes(`<alt ${k + 1}>`) }));
  return { token, logprob, bytes: bytes(token), top_logprobs: top > 0 ? [{ token, logprob, bytes: bytes(token) }, ...alternatives] : [] };
};
const textPart = (response: { output: Array<{ type: string; content?: unknown[] }> }) =>
  response.output.find((item) => item.type === 'message')!.content![0] as ResponseOutputText;

/** `test-scripted`, declaring a 16 ms window like the real engines: fast tokens go out batched. */
class PacedScriptedEngine extends ScriptedEngine {
  readonly deltaWindowMs = 16;
}

/** `test-scripted` on an engine that cannot report logprobs. */
class NoLogprobsEngine extends ScriptedEngine {
  override readonly reportsLogprobs = false;
}

test('plain: each output token with its logprob and top_logprobs alternatives, on the part and on retrieve with the include', async () => {
  local = await localClient();
  const response = await local.client.responses.create({ model, input: script('Hello world!', { chunk: 4 }), top_logprobs: 2, include });
  expect(response.top_logprobs).toBe(2);
  expect(response.output_text).toBe('Hello world!');
  expect(textPart(response).logprobs).toEqual([expected('Hell', 0, 2), expected('o wo', 1, 2), expected('rld!', 2, 2)]);
  const again = await local.client.responses.retrieve(response.id, { include });
  expect(textPart(again).logprobs).toEqual(textPart(response).logprobs);
  // OpenAI shows them only when asked: a retrieve without the include does not.
  expect(textPart(await local.client.responses.retrieve(response.id))).not.toHaveProperty('logprobs');
});

test('top_logprobs absent: logprobs of the sampled tokens with no alternatives', async () => {
  local = await localClient();
  const response = await local.client.responses.create({ model, input: script('Hi there', { chunk: 4 }), include });
  expect(response.top_logprobs).toBe(0);
  expect(textPart(response).logprobs).toEqual([expected('Hi t', 0, 0), expected('here', 1, 0)]);
});

test('not included: no logprobs anywhere, even with top_logprobs', async () => {
  local = await localClient();
  const response = await local.client.responses.create({ model, input: script('Hi there'), top_logprobs: 3 });
  expect(response.top_logprobs).toBe(3);
  expect(textPart(response)).not.toHaveProperty('logprobs');
  const stream = await local.client.responses.create({ model, input: script('Hi there'), top_logprobs: 3, stream: true });
  const events: ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  for (const event of events) {
    if (event.type === 'response.output_text.delta' || event.type === 'response.output_text.done') expect(event.logprobs).toEqual([]);
    if (event.type === 'response.content_part.done') expect(event.part).not.toHaveProperty('logprobs');
  }
});

test('streamed and batched by the pacing: deltas carry the logprobs of their tokens; reasoning and tool calls carry none', async () => {
  local = await localClient({ engine: new PacedScriptedEngine() });
  // 4-character tokens: "<thi" "nk>h" "m</t" "hink" ">Hi " "ther" "e<to" … — tokens straddle the tags.
  const output = '<think>hm</think>Hi there<tool_call>{"name":"f","arguments":{}}</tool_call>';
  const tokens = Array.from({ length: Math.ceil(output.length / 4) }, (_, i) => output.slice(i * 4, i * 4 + 4));
  const stream = await local.client.responses.create({
    model,
    input: script(output),
    top_logprobs: 1,
    include,
    tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: {} }, strict: false }],
    stream: true,
  });
  const events: ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  const deltas = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e] : []));
  expect(deltas.map((d) => d.delta).join('')).toBe('Hi there');
  // Batched: fewer text events than tokens, yet every token of the text is there once, in order.
  expect(deltas.length).toBeLessThan(3);
  const streamed = deltas.flatMap((d) => d.logprobs);
  // A token counts for the text its first text character lands in: ">Hi " (after </think>),
  // "ther", and "e<to" (its "e" is text, the rest starts the tool call).
  expect(streamed).toEqual([expected('>Hi ', 4, 1), expected('ther', 5, 1), expected('e<to', 6, 1)]);
  expect(events.find((e) => e.type === 'response.output_text.done')).toMatchObject({ logprobs: streamed });
  expect(events.filter((e) => e.type === 'response.content_part.done').map((e) => 'part' in e && e.part)).toContainEqual(
    expect.objectContaining({ type: 'output_text', text: 'Hi there', logprobs: streamed }),
  );
  const completed = events.at(-1)!;
  expect(completed.type).toBe('response.completed');
  if (completed.type !== 'response.completed') return;
  expect(completed.response.output.map((i) => i.type)).toEqual(['reasoning', 'message', 'function_call']);
  expect(textPart(completed.response).logprobs).toEqual(streamed);
  expect(tokens[6]).toBe('e<to');
});

test('top_logprobs outside 0–20 is a 400 naming it', async () => {
  local = await localClient();
  for (const top_logprobs of [21, -1, 1.5]) {
    const error = await local.client.responses.create({ model, input: 'hi', top_logprobs, include }).catch((err: unknown) => err);
    expect(error).toMatchObject({ status: 400, param: 'top_logprobs' });
  }
});

test('an engine with fewer alternatives than asked (web-llm: 5): a 400 naming the model and its limit', async () => {
  class FiveTopEngine extends ScriptedEngine {
    readonly maxTopLogprobs = 5;
  }
  local = await localClient({ engine: new FiveTopEngine() });
  const error = await local.client.responses.create({ model, input: 'hi', top_logprobs: 6, include }).catch((err: unknown) => err);
  expect(error).toMatchObject({ status: 400, code: 'logprobs_unsupported', param: 'top_logprobs', message: expect.stringMatching(/'test-scripted'.*at most 5/) });
  expect(textPart(await local.client.responses.create({ model, input: script('Hi'), top_logprobs: 5, include })).logprobs).toHaveLength(1);
});

test('an engine that cannot report logprobs: a 400 naming the model and the parameter', async () => {
  local = await localClient({ engine: new NoLogprobsEngine() });
  const included = await local.client.responses.create({ model, input: 'hi', include }).catch((err: unknown) => err);
  expect(included).toMatchObject({ status: 400, code: 'logprobs_unsupported', param: 'include', message: expect.stringContaining("'test-scripted'") });
  const top = await local.client.responses.create({ model, input: 'hi', top_logprobs: 2 }).catch((err: unknown) => err);
  expect(top).toMatchObject({ status: 400, code: 'logprobs_unsupported', param: 'top_logprobs', message: expect.stringContaining("'test-scripted'") });
  // Not asked for: the model answers as always.
  expect((await local.client.responses.create({ model, input: 'hi', top_logprobs: 0 })).output_text).toBe('You said: hi');
});
