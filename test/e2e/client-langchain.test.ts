/**
 * LangChain (`@langchain/openai` ChatOpenAI with `useResponsesApi`) bundled into the page
 * (test/e2e/clients/langchain.ts), on `test-scripted` through the service worker.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startE2E } from '../support/browser';
import { openClientPage } from '../support/client-bundle';
import type * as Scenarios from './clients/langchain';

declare global {
  interface Window {
    langchainScenarios?: typeof Scenarios;
  }
}

let e2e: Awaited<ReturnType<typeof startE2E>>;
let page: Page;
beforeAll(async () => {
  ({ e2e, page } = await openClientPage('langchain', 'langchainScenarios'));
}, 120_000);
afterAll(() => e2e?.close());


test('function tool round trip: bindTools, run the call, the second invoke answers', async () => {
  const result = await page.evaluate(() => window.langchainScenarios!.toolRoundTrip());
  expect(result.toolCalls).toEqual([{ city: 'Paris' }]);
  expect(result.text).toBe('Paris is clear.');
  expect(result.turns).toBe(2);
});

test('function tool round trip, streamed: chunks merge into the tool call, then the answer streams', async () => {
  const result = await page.evaluate(() => window.langchainScenarios!.toolRoundTripStreamed());
  expect(result.toolCalls).toEqual([{ city: 'Paris' }]);
  expect(result.text).toBe('Paris is clear.');
  expect(result.chunkCounts[1]).toBeGreaterThan(2);
});

test('multi-step tool use: two tool calls, then the answer', async () => {
  const result = await page.evaluate(() => window.langchainScenarios!.multiStep());
  expect(result.toolCalls).toEqual([{ city: 'Paris' }, { city: 'Oslo' }]);
  expect(result.text).toBe('Paris is clear, Oslo has rain.');
  expect(result.turns).toBe(3);
});

test('structured output: withStructuredOutput (jsonSchema) parses the answer', async () => {
  const result = await page.evaluate(() => window.langchainScenarios!.structuredOutput());
  expect(result.format).toBe('json_schema');
  expect(result.output).toEqual({ city: 'Paris', celsius: 21 });
});

test('reasoning summary: a reasoning content block on the AI message', async () => {
  const result = await page.evaluate(() => window.langchainScenarios!.reasoning());
  expect(result.sentReasoning).toEqual({ summary: 'auto' });
  expect(result.text).toBe('Hello!');
  expect(result.reasoning.join('')).toBe('The user wants a greeting.');
});

test('reasoning summary, streamed: reasoning arrives in chunks', async () => {
  const result = await page.evaluate(() => window.langchainScenarios!.reasoningStreamed());
  expect(result.text).toBe('Hello!');
  expect(result.reasoningChunks.join('')).toBe('The user wants a greeting.');
  expect(result.reasoningChunks.length).toBeGreaterThan(1);
});

test('store: false chain (zdrEnabled): encrypted reasoning is carried back and the tool round trip completes', async () => {
  const result = await page.evaluate(() => window.langchainScenarios!.statelessEncryptedReasoning());
  expect(result.firstRequest).toEqual({ store: false, include: ['reasoning.encrypted_content'] });
  expect(result.carriedEncrypted).toEqual([true]);
  expect(result.toolCalls).toEqual([{ city: 'Paris' }]);
  expect(result.text).toBe('Paris is clear.');
});

// Logprobs asked for through modelKwargs are answered (no longer a 400). Whether LangChain
// surfaces them in response_metadata is its business; the request must succeed.
test('logprobs: asked for through modelKwargs, the request succeeds', async () => {
  const result = await page.evaluate(() => window.langchainScenarios!.logprobs());
  expect(result.sent).toEqual({ top_logprobs: 2, include: ['message.output_text.logprobs'] });
  expect(result.error).toBeNull();
  expect(result.text).toBe('Hi there');
});

test('a failed response surfaces as an error from invoke; a stream ends quietly (LangChain ignores response.failed)', async () => {
  const plain = await page.evaluate(() => window.langchainScenarios!.failure());
  const streamed = await page.evaluate(() => window.langchainScenarios!.failureStreamed());
  expect(plain).toMatchObject({ name: 'server_error', message: expect.stringContaining('scripted failure') });
  // LangChain 1.6 ignores `response.failed` when streaming (see failureStreamed): the
  // stream ends without an error after the text that came before the failure.
  expect(streamed.thrown).toBeNull();
  expect(streamed.text).toBe('this ans');
});
