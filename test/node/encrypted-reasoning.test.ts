/**
 * `store: false` + `include: ["reasoning.encrypted_content"]` (issue 13, item 2; the AI SDK
 * adds it by itself): reasoning comes back sealed with this origin's key and is accepted
 * back as input, so a stateless tool loop keeps the model's reasoning. Tampered content,
 * content of another item and content sealed with another key are a 400 naming the param.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import type OpenAI from 'openai';
import type { ResponseInputItem, ResponseReasoningItem } from 'openai/resources/responses/responses';
import { RecordingEngine } from '../fakes/recording-engine';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient;
let engine: RecordingEngine;
beforeEach(async () => {
  engine = new RecordingEngine();
  local = await localClient({ engine });
});
afterEach(() => closeAndCheck(local));

const model = 'test-scripted';
const tools = [{ type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: {} }, strict: false }];
const userText = script(['<think>Need the weather first.</think><tool_call>{"name":"get_weather","arguments":{}}</tool_call>', 'It is sunny.']);
const include: ['reasoning.encrypted_content'] = ['reasoning.encrypted_content'];

/** Turn 1 of a stateless tool loop: the reasoning item (sealed) and the call. */
async function firstTurn(client: OpenAI = local.client) {
  const response = await client.responses.create({ model, input: userText, tools, store: false, include });
  const reasoning = response.output.find((i): i is ResponseReasoningItem => i.type === 'reasoning')!;
  const call = response.output.find((i) => i.type === 'function_call')!;
  if (call.type !== 'function_call') throw new Error('no call');
  return { response, reasoning, call };
}

function secondTurnInput(reasoning: ResponseReasoningItem, call: { call_id: string; name: string; arguments: string }, encrypted = reasoning.encrypted_content): ResponseInputItem[] {
  return [
    { role: 'user', content: userText },
    { type: 'reasoning', id: reasoning.id, summary: [], encrypted_content: encrypted ?? null },
    { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
    { type: 'function_call_output', call_id: call.call_id, output: '{"sky":"clear"}' },
  ];
}

test('a stateless tool loop gets its reasoning back sealed and the model sees it again in the next turn', async () => {
  const { response, reasoning, call } = await firstTurn();
  expect(reasoning.encrypted_content).toMatch(/^lr1\./);
  expect(reasoning.encrypted_content).not.toContain('weather'); // sealed, not encoded
  expect(reasoning.content).toEqual([{ type: 'reasoning_text', text: 'Need the weather first.' }]);
  await expect(local.client.responses.retrieve(response.id)).rejects.toMatchObject({ status: 404 }); // nothing stored

  const second = await local.client.responses.create({ model, input: secondTurnInput(reasoning, call), tools, store: false, include });
  expect(second.output_text).toBe('It is sunny.');
  // Once in the user's script, once more as the assistant's reasoning of this tool loop.
  const mentions = () => engine.requests.at(-1)!.input.prompt.split('Need the weather first.').length - 1;
  expect(mentions()).toBe(2);

  // Without the sealed item the model would not have seen it: the check above can fail.
  await local.client.responses.create({ model, input: secondTurnInput(reasoning, call).filter((i) => i.type !== 'reasoning'), tools, store: false });
  expect(mentions()).toBe(1);
});

test('tampered content, another item id or another key is a 400 naming input[i].encrypted_content', async () => {
  const { reasoning, call } = await firstTurn();
  const sealed = reasoning.encrypted_content!;
  const flipped = sealed.slice(0, -6) + (sealed.at(-6) === 'A' ? 'B' : 'A') + sealed.slice(-5);
  const expected = { status: 400, code: 'invalid_encrypted_content', param: 'input[1].encrypted_content' };
  await expect(local.client.responses.create({ model, input: secondTurnInput(reasoning, call, flipped), tools, store: false })).rejects.toMatchObject(expected);
  await expect(local.client.responses.create({ model, input: secondTurnInput(reasoning, call, 'not sealed at all'), tools, store: false })).rejects.toMatchObject(expected);
  await expect(
    local.client.responses.create({ model, input: secondTurnInput({ ...reasoning, id: 'rs_other' }, call, sealed), tools, store: false }),
  ).rejects.toMatchObject(expected);

  // Sealed by another origin's (another database's) key.
  const other = await localClient();
  try {
    const theirs = await firstTurn(other.client);
    await expect(
      local.client.responses.create({ model, input: secondTurnInput({ ...reasoning, id: theirs.reasoning.id }, call, theirs.reasoning.encrypted_content), tools, store: false }),
    ).rejects.toMatchObject(expected);
  } finally {
    await closeAndCheck(other);
  }
});

test('the key is kept in IndexedDB: content sealed before a restart opens after it', async () => {
  const { reasoning, call } = await firstTurn();
  const restarted = await localClient({ dbName: local.dbName });
  try {
    const second = await restarted.client.responses.create({ model, input: secondTurnInput(reasoning, call), tools, store: false, include });
    expect(second.output_text).toBe('It is sunny.');
  } finally {
    await closeAndCheck(restarted);
  }
});

test('streamed: output_item.done and response.completed carry the sealed reasoning; without include nothing is sealed', async () => {
  const stream = await local.client.responses.create({ model, input: userText, tools, store: false, include, stream: true });
  const sealed: string[] = [];
  for await (const event of stream) {
    if (event.type === 'response.output_item.done' && event.item.type === 'reasoning') sealed.push(event.item.encrypted_content ?? '');
    if (event.type === 'response.completed') sealed.push((event.response.output[0] as ResponseReasoningItem).encrypted_content ?? '');
  }
  expect(sealed).toHaveLength(2);
  expect(sealed.every((s) => s.startsWith('lr1.'))).toBe(true);

  const plain = await local.client.responses.create({ model, input: userText, tools, store: false });
  expect(plain.output[0]).not.toHaveProperty('encrypted_content');
});
