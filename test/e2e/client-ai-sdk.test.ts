/**
 * The Vercel AI SDK (`ai` + `@ai-sdk/openai` Responses provider) bundled into the page
 * (test/e2e/clients/ai-sdk.ts), on `test-scripted` through the service worker.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startE2E } from '../support/browser';
import { openClientPage } from '../support/client-bundle';
import type * as Scenarios from './clients/ai-sdk';

declare global {
  interface Window {
    aiSdkScenarios?: typeof Scenarios;
  }
}

let e2e: Awaited<ReturnType<typeof startE2E>>;
let page: Page;
beforeAll(async () => {
  ({ e2e, page } = await openClientPage('ai-sdk', 'aiSdkScenarios'));
}, 120_000);
afterAll(() => e2e?.close());

test('function tool round trip: generateText runs the tool, the second step answers', async () => {
  const result = await page.evaluate(() => window.aiSdkScenarios!.toolRoundTrip());
  expect(result.toolCalls).toEqual([{ city: 'Paris' }]);
  expect(result.text).toBe('Paris is clear.');
  expect(result.steps).toBe(2);
  // The provider resends the whole conversation (no previous_response_id).
  expect(result.inputTypes).toEqual(['message:user', 'function_call', 'function_call_output']);
});

test('function tool round trip, streamed: streamText emits the tool call, its result and text deltas', async () => {
  const result = await page.evaluate(() => window.aiSdkScenarios!.toolRoundTripStreamed());
  expect(result.toolCalls).toEqual([{ city: 'Paris' }]);
  expect(result.parts).toEqual(['tool-call', 'tool-result', 'finish-step', 'finish-step']);
  expect(result.textDeltas.join('')).toBe('Paris is clear.');
  expect(result.textDeltas.length).toBeGreaterThan(1);
  expect(result.text).toBe('Paris is clear.');
});

test('multi-step tool use: stopWhen lets two tool calls run before the answer', async () => {
  const result = await page.evaluate(() => window.aiSdkScenarios!.multiStep());
  expect(result.toolCalls).toEqual([{ city: 'Paris' }, { city: 'Oslo' }]);
  expect(result.text).toBe('Paris is clear, Oslo has rain.');
  expect(result.steps).toBe(3);
});

test('structured output: Output.object sends a json_schema format and parses the answer', async () => {
  const result = await page.evaluate(() => window.aiSdkScenarios!.structuredOutput());
  expect(result.format).toBe('json_schema');
  expect(result.output).toEqual({ city: 'Paris', celsius: 21 });
});

test('reasoning summary: reasoningText from generateText', async () => {
  const result = await page.evaluate(() => window.aiSdkScenarios!.reasoning());
  expect(result.sentReasoning).toMatchObject({ summary: 'auto' });
  expect(result.text).toBe('Hello!');
  expect(result.reasoningText).toBe('The user wants a greeting.');
});

test('reasoning summary, streamed: reasoning deltas before the text', async () => {
  const result = await page.evaluate(() => window.aiSdkScenarios!.reasoningStreamed());
  expect(result.text).toBe('Hello!');
  expect(result.reasoningDeltas.join('')).toBe('The user wants a greeting.');
  expect(result.reasoningText).toBe('The user wants a greeting.');
});

test('store: false chain: encrypted reasoning is asked for, carried back, and the tool round trip completes', async () => {
  const result = await page.evaluate(() => window.aiSdkScenarios!.statelessEncryptedReasoning());
  expect(result.firstRequest).toEqual({ store: false, include: ['reasoning.encrypted_content'] });
  expect(result.carriedEncrypted).toEqual([true]);
  expect(result.toolCalls).toEqual([{ city: 'Paris' }]);
  expect(result.text).toBe('Paris is clear.');
  expect(result.retrieveStatuses).toEqual([404, 404]);
});

// The scripted model's logprobs (src/engine/scripted-engine.ts): one token per 4 characters,
// token i at -(i % 5)/10, its alternatives itself and `<alt k>`.
test('logprobs: the provider asks for them and gets each token of the text with its alternatives', async () => {
  const result = await page.evaluate(() => window.aiSdkScenarios!.logprobs());
  expect(result.sent).toEqual({ top_logprobs: 2, include: ['message.output_text.logprobs'] });
  expect(result.error).toBeNull();
  expect(result.text).toBe('Hi there');
  expect(result.logprobs?.flat().map((l) => [l.token, l.logprob, l.top_logprobs.length])).toEqual([
    ['Hi t', 0, 2],
    ['here', -0.1, 2],
  ]);
});

test('a failed response surfaces as an error (plain and streamed)', async () => {
  const plain = await page.evaluate(() => window.aiSdkScenarios!.failure());
  const streamed = await page.evaluate(() => window.aiSdkScenarios!.failureStreamed());
  // Our message reaches the user (before the fix: 'Invalid JSON response').
  expect(plain).toMatchObject({ name: 'AI_APICallError', message: expect.stringContaining('scripted failure') });
  // streamText does not throw: the failure is an error part, also reported to onError.
  expect(streamed.errorParts).toEqual([expect.stringContaining('scripted failure')]);
  expect(streamed.reported).toEqual(streamed.errorParts);
});
