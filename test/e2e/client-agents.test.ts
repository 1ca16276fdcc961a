/**
 * The OpenAI Agents SDK bundled into the page (test/e2e/clients/agents.ts), on
 * `test-scripted` through the service worker: tools, multi-step runs, structured output,
 * reasoning, and failures surfacing as errors.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startE2E } from '../support/browser';
import { openClientPage } from '../support/client-bundle';
import type * as Scenarios from './clients/agents';

declare global {
  interface Window {
    agentsScenarios?: typeof Scenarios;
  }
}

let e2e: Awaited<ReturnType<typeof startE2E>>;
let page: Page;
beforeAll(async () => {
  ({ e2e, page } = await openClientPage('agents', 'agentsScenarios'));
}, 120_000);
afterAll(() => e2e?.close());

test('function tool round trip: the SDK runs the tool and the model answers with its result', async () => {
  const result = await page.evaluate(() => window.agentsScenarios!.toolRoundTrip());
  expect(result.toolCalls).toEqual([{ city: 'Paris' }]);
  expect(result.finalOutput).toBe('Paris is clear.');
  expect(result.items).toEqual(['tool_call_item', 'tool_call_output_item', 'message_output_item']);
  expect(result.requests).toBe(2);
});

test('function tool round trip, streamed: text deltas and run item events arrive', async () => {
  const result = await page.evaluate(() => window.agentsScenarios!.toolRoundTripStreamed());
  expect(result.toolCalls).toEqual([{ city: 'Paris' }]);
  expect(result.finalOutput).toBe('Paris is clear.');
  expect(result.textDeltas.join('')).toBe('Paris is clear.');
  expect(result.textDeltas.length).toBeGreaterThan(1);
  expect(result.runEvents).toEqual(['tool_called', 'tool_output', 'message_output_created']);
});

test('multi-step tool use: two tool calls, then the answer', async () => {
  const result = await page.evaluate(() => window.agentsScenarios!.multiStep());
  expect(result.toolCalls).toEqual([{ city: 'Paris' }, { city: 'Oslo' }]);
  expect(result.finalOutput).toBe('Paris is clear, Oslo has rain.');
  expect(result.responses).toBe(3);
});

test('structured output: outputType (zod) comes back parsed', async () => {
  const result = await page.evaluate(() => window.agentsScenarios!.structuredOutput());
  expect(result.format).toBe('json_schema');
  expect(result.finalOutput).toEqual({ city: 'Paris', celsius: 21 });
});

test('reasoning summary: the reasoning item shows the summary (and keeps the raw reasoning)', async () => {
  const result = await page.evaluate(() => window.agentsScenarios!.reasoning({ reasoning: { summary: 'auto' } }));
  expect(result.finalOutput).toBe('Hello!');
  expect(result.summaries).toEqual(['The user wants a greeting.']);
  expect(result.rawReasoning).toEqual(['The user wants a greeting.']);
});

test('reasoning summary, streamed: summary deltas, then the reasoning item event', async () => {
  const result = await page.evaluate(() => window.agentsScenarios!.reasoningStreamed({ reasoning: { summary: 'auto' } }));
  expect(result.finalOutput).toBe('Hello!');
  expect(result.summaryDeltas.join('')).toBe('The user wants a greeting.');
  expect(result.runEvents).toEqual(['reasoning_item_created', 'message_output_created']);
});

test('store: false chain: encrypted reasoning is carried back, no previous_response_id, the round trip completes', async () => {
  const result = await page.evaluate(() => window.agentsScenarios!.statelessEncryptedReasoning());
  expect(result.firstRequest).toEqual({ store: false, include: ['reasoning.encrypted_content'] });
  expect(result.previousResponseIds).toEqual([null, null]);
  expect(result.carriedEncrypted).toEqual([true]);
  expect(result.toolCalls).toEqual([{ city: 'Paris' }]);
  expect(result.finalOutput).toBe('Paris is clear.');
});

// Logprobs asked for through providerData are answered: the run succeeds (no longer a 400).
test('logprobs: asked for through providerData, the run succeeds', async () => {
  const error = await page.evaluate(() => window.agentsScenarios!.logprobs());
  expect(error).toBeNull();
});

test('a failed response surfaces as an error (plain and streamed)', async () => {
  const plain = await page.evaluate(() => window.agentsScenarios!.failure());
  const streamed = await page.evaluate(() => window.agentsScenarios!.failureStreamed());
  // The SDK reports the terminal `response.failed` event as its own error type.
  for (const error of [plain, streamed]) {
    expect(error).toMatchObject({ name: 'ModelBehaviorError' });
    expect(error!.message).toContain('response.failed');
  }
});
