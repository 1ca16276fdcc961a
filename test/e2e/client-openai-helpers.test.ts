/**
 * The `openai` SDK's Responses helpers bundled into the page
 * (test/e2e/clients/openai-helpers.ts): `responses.stream()` and `responses.parse()`, on
 * `test-scripted` through the service worker.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startE2E } from '../support/browser';
import { openClientPage } from '../support/client-bundle';
import type * as Scenarios from './clients/openai-helpers';

declare global {
  interface Window {
    openaiHelperScenarios?: typeof Scenarios;
  }
}

let e2e: Awaited<ReturnType<typeof startE2E>>;
let page: Page;
beforeAll(async () => {
  ({ e2e, page } = await openClientPage('openai-helpers', 'openaiHelperScenarios'));
}, 120_000);
afterAll(() => e2e?.close());


test('stream(): a function tool round trip across two streamed responses', async () => {
  const result = await page.evaluate(() => window.openaiHelperScenarios!.toolRoundTripStreamed());
  expect(result.toolCalls).toEqual([{ city: 'Paris' }]);
  expect(JSON.parse(result.argDeltas)).toEqual({ city: 'Paris' });
  expect(result.textDeltas.join('')).toBe('Paris is clear.');
  expect(result.status).toBe('completed');
  expect(result.text).toBe('Paris is clear.');
});

test('parse(): a zodResponsesFunction call comes back with parsed_arguments', async () => {
  const result = await page.evaluate(() => window.openaiHelperScenarios!.parsedToolCall());
  expect(result.parsedArguments).toEqual({ city: 'Paris' });
});

test('parse() and stream() with zodTextFormat: output_parsed', async () => {
  const plain = await page.evaluate(() => window.openaiHelperScenarios!.structuredOutput());
  expect(plain.format).toBe('json_schema');
  expect(plain.outputParsed).toEqual({ city: 'Paris', celsius: 21 });
  const streamed = await page.evaluate(() => window.openaiHelperScenarios!.structuredOutputStreamed());
  expect(streamed.outputParsed).toEqual({ city: 'Oslo', celsius: 9 });
});

test('stream(): reasoning summary deltas, and the summary on the final reasoning item', async () => {
  const result = await page.evaluate(() => window.openaiHelperScenarios!.reasoningStreamed());
  expect(result.text).toBe('Hello!');
  expect(result.summaryDeltas.join('')).toBe('The user wants a greeting.');
  expect(result.summary).toEqual(['The user wants a greeting.']);
});

// The scripted model's logprobs (src/engine/scripted-engine.ts): token i at -(i % 5)/10,
// its alternatives itself and `<alt k>`; one token per 4 characters.
test('stream(): logprobs on every text delta and on the final output_text part', async () => {
  const result = await page.evaluate(() => window.openaiHelperScenarios!.logprobsStreamed());
  expect(result.error).toBeNull();
  expect(result.text).toBe('Hi there');
  expect(result.deltaLogprobs).toEqual([1, 1]);
  expect(result.logprobs?.map((l) => [l.token, l.logprob, l.top_logprobs.map((t) => t.token)])).toEqual([
    ['Hi t', 0, ['Hi t', '<alt 1>']],
    ['here', -0.1, ['here', '<alt 1>']],
  ]);
});

test('stream(): a failed response ends with response.failed; finalResponse() carries its error', async () => {
  const result = await page.evaluate(() => window.openaiHelperScenarios!.failureStreamed());
  expect(result.thrown).toBeNull();
  expect(result.lastEvent).toBe('response.failed');
  expect(result.status).toBe('failed');
  expect(result.error).toMatchObject({ code: 'server_error', message: expect.stringContaining('scripted failure') });
});
