/**
 * The computer tool in Chromium (issue 33, item 6), through the real `openai` SDK bundled into
 * the page and the service worker: a `computer_call` for the client, its screenshot back in to a
 * model that sees — stored and chained, streamed and replayed statelessly, over the WebSocket.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startE2E } from '../support/browser';
import { openClientPage } from '../support/client-bundle';
import type * as ComputerTool from './clients/computer-tool';

declare global {
  interface Window {
    computerTool?: typeof ComputerTool;
  }
}

let e2e: Awaited<ReturnType<typeof startE2E>>;
let page: Page;
beforeAll(async () => {
  ({ e2e, page } = await openClientPage('computer-tool', 'computerTool'));
}, 180_000);
afterAll(() => e2e?.close());

const click = { type: 'click', button: 'left', x: 10, y: 20 };

test('computer_use_preview, stored: a computer_call ends the response; the screenshot by previous_response_id gets the answer; listed', async () => {
  const result = await page.evaluate(() => window.computerTool!.previewStored());
  expect(result).toEqual({
    status: 'completed',
    call: { type: 'computer_call', action: click, checks: [] },
    answer: 'Clicked.',
    listed: ['computer_call_output'],
  });
});

test('the GA computer tool, streamed and not stored; replayed statelessly with the screenshot; a model that does not see refuses it', async () => {
  const result = await page.evaluate(() => window.computerTool!.gaStreamedReplayed());
  expect(result.announced).toEqual(['computer_call']);
  expect(result.last).toBe('response.completed');
  expect(result.answer).toBe('Clicked.');
  expect(result.blind?.status).toBe(400);
  expect(result.blind?.message).toMatch(/cannot see images/);
});

test('over the WebSocket: the call in one turn, the screenshot in the chained turn', async () => {
  const result = await page.evaluate(() => window.computerTool!.overWebSocket());
  expect(result).toEqual({ first: ['computer_call'], action: click, second: 'response.completed', text: 'Clicked.' });
});
