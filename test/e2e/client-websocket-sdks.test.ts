/**
 * Client libraries in WebSocket mode, bundled into the page (Chromium): the Agents SDK with
 * `setOpenAIResponsesTransport('websocket')` (function tools, a multi-turn streamed run, a
 * chain by `previousResponseId`), and the `openai` SDK's WebSocket machinery (see
 * test/e2e/clients/openai-websocket.ts for why its Node-only `ResponsesWS` cannot run in a
 * page and what runs instead). No model call may go over HTTP.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openApp, startE2E } from '../support/browser';
import { clientBundle } from '../support/client-bundle';
import type * as AgentsWs from './clients/agents-websocket';
import type * as OpenAIWs from './clients/openai-websocket';

declare global {
  interface Window {
    agentsWs?: typeof AgentsWs;
    openaiWs?: typeof OpenAIWs;
  }
}

let e2e: Awaited<ReturnType<typeof startE2E>>;
let origin: string;
const pages: Record<string, Page> = {};

beforeAll(async () => {
  const [started, agents, openai] = await Promise.all([startE2E(), clientBundle('agents-websocket', 'agentsWs'), clientBundle('openai-websocket', 'openaiWs')]);
  e2e = started;
  origin = e2e.app.origin;
  // A page per library: the Agents SDK's module-level defaults (transport, client) stay its own.
  for (const [name, bundle] of [['agents', agents], ['openai', openai]] as const) {
    pages[name] = await openApp(await e2e.browser.newContext({ bypassCSP: true }), origin);
    await pages[name]!.addScriptTag({ content: bundle });
  }
}, 180_000);
afterAll(() => e2e?.close());

const wsUrl = () => `${origin.replace(/^http/, 'ws')}/v1/responses`;

test('Agents SDK over the in-page WebSocket: a function tool round trip, sent as response.create frames with {headers}', async () => {
  const result = await pages.agents!.evaluate(() => window.agentsWs!.toolRoundTrip());
  expect(result.finalOutput).toBe('Paris is clear.');
  expect(result.toolCalls).toEqual([{ city: 'Paris' }]);
  expect(result.items).toEqual(['tool_call_item', 'tool_call_output_item', 'message_output_item']);
  expect(result.socketUrls).toEqual([wsUrl()]);
  expect(result.headers).toMatchObject({ authorization: 'Bearer local-key' });
  expect(result.frames.map((f) => f.type)).toEqual(['response.create', 'response.create']);
  expect(result.httpCalls).toEqual([]);
});

test('Agents SDK over the in-page WebSocket: a multi-turn streamed run (two tool calls), then a second run on the same connection', async () => {
  const result = await pages.agents!.evaluate(() => window.agentsWs!.multiTurnStreamed());
  expect(result.toolCalls).toEqual([{ city: 'Paris' }, { city: 'Oslo' }]);
  expect(result.finalOutput).toBe('Paris is clear, Oslo has rain.');
  expect(result.textDeltas.join('')).toBe('Paris is clear, Oslo has rain.');
  expect(result.textDeltas.length).toBeGreaterThan(1);
  expect(result.runEvents).toEqual(['tool_called', 'tool_output', 'tool_called', 'tool_output', 'message_output_created']);
  expect(result.again).toBe('You said: And now?');
  expect(result.frames).toHaveLength(4);
  expect(result.httpCalls).toEqual([]);
});

test('Agents SDK over the in-page WebSocket: previousResponseId chains by id and sends only new items', async () => {
  const result = await pages.agents!.evaluate(() => window.agentsWs!.chainedByResponseId());
  expect(result.first).toBe('You said: Hello');
  expect(result.finalOutput).toBe('Oslo has rain.');
  expect(result.toolCalls).toEqual([{ city: 'Oslo' }]);
  const [, second, third] = result.frames;
  expect(second!.previous).toMatch(/^resp_/);
  expect(third!.previous).toMatch(/^resp_/);
  expect(third!.previous).not.toBe(second!.previous);
  expect(result.httpCalls).toEqual([]);
});

test('the openai SDK’s WebSocket client (ResponsesWSBase with a page adapter): send + stream()', async () => {
  const result = await pages.openai!.evaluate(() => window.openaiWs!.streamOneTurn());
  expect(result.url).toBe(wsUrl());
  expect(result.text).toBe('You said: from the SDK');
  expect(result.types[0]).toBe('response.created');
  expect(result.types.at(-1)).toBe('response.completed');
});

test('the openai SDK’s lanes helper: two lanes at once, a third forked from the first’s response', async () => {
  const result = await pages.openai!.evaluate(() => window.openaiWs!.lanes());
  expect(result).toEqual({ a: 'lane a answers', b: 'lane b answers', c: 'You said: forked', previous: true });
});
