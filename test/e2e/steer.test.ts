/**
 * Issue 33 in Chromium, through the `openai` SDK bundled into a page of the origin: the
 * `additional_tools`, `configuration_update` and `compaction_trigger` items over HTTP
 * (streamed and not; stored, listed, replayed) and over the in-page WebSocket; and steering a
 * running streamed response over the WebSocket (`response.steer`).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startE2E } from '../support/browser';
import { openClientPage } from '../support/client-bundle';
import type * as SteerKit from './clients/steer';

declare global {
  interface Window {
    steerKit?: typeof SteerKit;
  }
}

let e2e: Awaited<ReturnType<typeof startE2E>>;
let page: Page;
beforeAll(async () => {
  ({ e2e, page } = await openClientPage('steer', 'steerKit'));
}, 180_000);
afterAll(() => e2e?.close());

test('context items over HTTP: additional tools callable in later turns, configuration carried, compaction triggered; stored, listed, replayed; a bad item is a 400', async () => {
  const result = await page.evaluate(() => window.steerKit!.itemsOverHttp());
  expect(result.first).toEqual([{ type: 'function_call', name: 'get_weather' }]);
  expect(result.streamed).toEqual({ calls: ['function_call'], effort: 'high', format: 'json_schema', tools: ['function'] });
  expect(result.listed).toEqual(['configuration_update', 'message']);
  expect(result.replay).toEqual(['function_call']);
  expect(result.compacted).toEqual({ status: 'completed', output: ['compaction'], items: 0 });
  // The configuration replayed at the start of that chain still holds after its compaction.
  expect(result.after).toEqual({ text: 'You said: And now?', effort: 'high', stored: ['compaction'] });
  expect(result.refused).toMatchObject({ status: 400 });
  expect(result.badParam).toEqual({ status: 400, param: 'input[0].type' });
});

test('context items over the WebSocket: additional tools on a store: false chain, compacted on the connection, still callable after', async () => {
  const result = await page.evaluate(() => window.steerKit!.itemsOverWebSocket());
  expect(result).toEqual({ first: ['function_call'], compacted: ['compaction'], later: ['function_call'] });
});

test('steering a running streamed response over the WebSocket: accepted, ends incomplete (steered) with its output kept and stored, successor at once on the lane, chained', async () => {
  const result = await page.evaluate(() => window.steerKit!.steerRunning());
  expect(result.accepted).toEqual({ id: expect.stringMatching(/^steer_/), previous_response_id: result.target });
  expect(result.incomplete.status).toBe('incomplete');
  expect(result.incomplete.reason).toBe('steered');
  expect(result.incomplete.text).toMatch(/^w+$/);
  expect(result.incomplete.text.length).toBeLessThan(400);
  expect(result.stored).toEqual({ status: 'incomplete', reason: 'steered', text: result.incomplete.text });
  expect(result.successor).toEqual({ previous: result.target, lane: 'chat', createdRightAfter: true, text: 'You said: Shorter, please.' });
  expect(result.items).toEqual(['Shorter, please.']);
  expect(result.failed).toBe('response_not_found');
});
