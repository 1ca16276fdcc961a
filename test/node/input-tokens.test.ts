/**
 * `POST /v1/responses/input_tokens` (issue 13, item 5): the input tokens a create request
 * would use, counted the way the run counts them — so it equals the `usage.input_tokens` of
 * the same request actually run, chain and tools included.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ScriptedEngine } from '../../src/engine/scripted-engine';
import { closeAndCheck, localClient, type LocalClient } from '../support/local-client';

let local: LocalClient;
beforeEach(async () => {
  local = await localClient();
});
afterEach(() => closeAndCheck(local));

const model = 'test-scripted';
const tools = [
  { type: 'function' as const, name: 'get_weather', description: 'Weather for a city.', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false },
];

test('the count equals the input usage of the same request, instructions, tools and previous_response_id included', async () => {
  const body = { model, input: 'What is the weather in Oslo?', instructions: 'Be brief.', tools };
  const counted = await local.client.responses.inputTokens.count(body);
  expect(counted).toEqual({ object: 'response.input_tokens', input_tokens: expect.any(Number), estimated: false });
  const ran = await local.client.responses.create(body);
  expect(counted.input_tokens).toBe(ran.usage!.input_tokens);

  const next = { model, input: 'And in Bergen?', tools, previous_response_id: ran.id };
  const withChain = await local.client.responses.inputTokens.count(next);
  const alone = await local.client.responses.inputTokens.count({ model, input: 'And in Bergen?', tools });
  expect(withChain.input_tokens).toBeGreaterThan(alone.input_tokens);
  expect(withChain.input_tokens).toBe((await local.client.responses.create(next)).usage!.input_tokens);

  const withoutTools = await local.client.responses.inputTokens.count({ model, input: 'And in Bergen?' });
  expect(alone.input_tokens).toBeGreaterThan(withoutTools.input_tokens);
});

test('nothing is run or stored; a bad chain is the same 404 as for create', async () => {
  await local.client.responses.inputTokens.count({ model, input: 'hi' });
  expect(await local.store.listStored()).toEqual([]);
  await expect(local.client.responses.inputTokens.count({ model, input: 'hi', previous_response_id: 'resp_nope' })).rejects.toMatchObject({
    status: 404,
    code: 'previous_response_not_found',
  });
});

test('an engine without a tokenizer says its count is an estimate', async () => {
  class EstimatingEngine extends ScriptedEngine {
    override readonly exactTokenCounts: boolean = false;
  }
  const estimating = await localClient({ engine: new EstimatingEngine() });
  try {
    expect(await estimating.client.responses.inputTokens.count({ model, input: 'hi' })).toMatchObject({ estimated: true });
  } finally {
    await closeAndCheck(estimating);
  }
});
