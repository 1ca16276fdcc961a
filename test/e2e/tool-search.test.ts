/**
 * Tool search in Chromium (issue 33, items 1–3), through the real `openai` SDK bundled into
 * the page and the service worker: run by the runtime (streamed and not, stored, replayed
 * statelessly, over the WebSocket) and by the client.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startE2E } from '../support/browser';
import { openClientPage } from '../support/client-bundle';
import type * as ToolSearch from './clients/tool-search';

declare global {
  interface Window {
    toolSearch?: typeof ToolSearch;
  }
}

let e2e: Awaited<ReturnType<typeof startE2E>>;
let page: Page;
beforeAll(async () => {
  ({ e2e, page } = await openClientPage('tool-search', 'toolSearch'));
}, 180_000);
afterAll(() => e2e?.close());

test('run here, stored: the search loads get_weather, the model calls it in the same response; the chain answers it', async () => {
  const result = await page.evaluate(() => window.toolSearch!.serverSearchStored());
  expect(result).toEqual({
    kinds: ['tool_search_call', 'tool_search_output', 'function_call'],
    loaded: ['get_weather'],
    called: 'get_weather',
    answer: 'Clear skies.',
    retrieved: ['tool_search_call', 'tool_search_output', 'function_call'],
  });
});

test('run here, streamed and not stored; replayed statelessly, the items are accepted and listed', async () => {
  const result = await page.evaluate(() => window.toolSearch!.serverSearchStreamedReplayed());
  expect(result.announced).toEqual(['tool_search_call', 'tool_search_output', 'function_call']);
  expect(result.answer).toBe('Clear skies.');
  expect(result.listed).toEqual(['message', 'tool_search_call', 'tool_search_output', 'function_call', 'function_call_output']);
});

test('run by the client: the call ends the response; its tool_search_output makes add_note callable', async () => {
  const result = await page.evaluate(() => window.toolSearch!.clientSearch());
  expect(result.call).toEqual({ type: 'tool_search_call', execution: 'client', arguments: { query: 'notes' } });
  expect(result.next).toEqual(['function_call:add_note']);
});

test('over the WebSocket: the search and the loaded call in one turn, the chained turn answers', async () => {
  const result = await page.evaluate(() => window.toolSearch!.overWebSocket());
  expect(result).toEqual({ first: ['tool_search_call', 'tool_search_output', 'function_call'], loaded: ['get_weather'], second: ['message'], text: 'Clear skies.' });
});
