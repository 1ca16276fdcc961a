/**
 * Remote MCP servers from the browser: the runtime worker is the MCP client of real MCP
 * servers (the official SDK's server side, Streamable HTTP) on other 127.0.0.1 ports —
 * other origins, so CORS applies for real. The servers are allowed the sanctioned way: the
 * app's stored settings (MCP servers), read when the runtime starts. `test-scripted`
 * scripts the model's calls.
 */
import type { Page } from 'playwright-core';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openApp, startE2E, waitForRuntime } from '../support/browser';
import { lastTurn, openChat, screenshot, send, waitForAnswer } from './app-support';
import { startTestMcpServer, type TestMcpServer } from '../fixtures/mcp-server';
import { pageResponses } from '../support/page-responses';

const TOKEN = 'e2e-mcp-token-7f3a9c';

let e2e: Awaited<ReturnType<typeof startE2E>>;
let open: TestMcpServer;
let noCors: TestMcpServer;
let down: TestMcpServer;
let unlisted: TestMcpServer;
let page: Page;

beforeAll(async () => {
  [e2e, open, noCors, down, unlisted] = await Promise.all([
    startE2E(),
    startTestMcpServer({ token: TOKEN }),
    startTestMcpServer({ allowOrigin: null }),
    startTestMcpServer(),
    startTestMcpServer(),
  ]);
  await down.close();
  page = await openApp(await e2e.browser.newContext(), e2e.app.origin);
  // The person added these servers in the settings; the runtime allows their hosts when it starts.
  const servers = [open, noCors, down].map((s, i) => ({ label: `s${i}`, url: s.url, allowedTools: [], requireApproval: 'always' }));
  await page.evaluate(async (mcpServers) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('local-responses-app');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const store = db.transaction('settings', 'readwrite').objectStore('settings');
    const current = await new Promise<Record<string, unknown> | undefined>((resolve) => {
      const r = store.get('settings');
      r.onsuccess = () => resolve(r.result as Record<string, unknown> | undefined);
    });
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('settings', 'readwrite');
      tx.objectStore('settings').put({ ...(current ?? {}), mcpServers }, 'settings');
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, servers);
  await page.reload();
  await waitForRuntime(page);
});
afterAll(async () => {
  await e2e?.close();
  await Promise.all([open, noCors, unlisted].map((s) => s?.close()));
});

const call = (name: string, args: object) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
const script = (steps: string[]) => JSON.stringify({ script: steps });
const mcpTool = (server: TestMcpServer, extra: Record<string, unknown> = {}) => ({ type: 'mcp', server_label: 'calc', server_url: server.url, authorization: TOKEN, ...extra });

const { create, stream } = pageResponses(() => page);

test('lists the tools and calls one over Streamable HTTP with the token; events in OpenAI’s order', async () => {
  const events = await stream({ input: script([call('calc__add', { a: 20, b: 22 }), 'It is 42.']), tools: [mcpTool(open, { require_approval: 'never' })] });
  const types = events.map((e) => e.type).filter((t) => /mcp|output_item|response\.(created|in_progress|completed)$/.test(t));
  expect(types).toEqual([
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.mcp_list_tools.in_progress',
    'response.mcp_list_tools.completed',
    'response.output_item.done',
    'response.output_item.added',
    'response.mcp_call.in_progress',
    'response.mcp_call_arguments.delta',
    'response.mcp_call_arguments.done',
    'response.mcp_call.completed',
    'response.output_item.done',
    'response.output_item.added',
    'response.output_item.done',
    'response.completed',
  ]);
  const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
  expect(done.response.output[0]).toMatchObject({ type: 'mcp_list_tools', server_label: 'calc' });
  expect(done.response.output[1]).toMatchObject({ type: 'mcp_call', name: 'add', output: '42', status: 'completed' });
  expect(done.response.output_text).toBe('It is 42.');
  expect(open.calls.at(-1)).toEqual({ name: 'add', args: { a: 20, b: 22 }, authorization: `Bearer ${TOKEN}` });
  expect(JSON.stringify(done.response.tools)).not.toContain(TOKEN);
});

test('approval round trip (approve, then deny) with allowed_tools, the tool list reused along the chain', async () => {
  const tools = [mcpTool(open, { allowed_tools: ['shout', 'add'] })];
  const callsBefore = open.calls.length;
  const first = await create({ input: script([call('calc__shout', { text: 'hi' }), call('calc__shout', { text: 'again' }), 'Done.']), tools });
  expect(first.output.map((i) => i.type)).toEqual(['mcp_list_tools', 'mcp_approval_request']);
  expect((first.output[0] as { tools: Array<{ name: string }> }).tools.map((t) => t.name).sort()).toEqual(['add', 'shout']);
  const request = first.output[1] as { id: string; name: string; arguments: string };
  expect(request).toMatchObject({ name: 'shout', arguments: '{"text":"hi"}' });
  expect(open.calls.length).toBe(callsBefore);

  const second = await create({ previous_response_id: first.id, input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }], tools });
  // No second mcp_list_tools: the chain listed this server already.
  expect(second.output.map((i) => i.type)).toEqual(['mcp_call', 'mcp_approval_request']);
  expect(second.output[0]).toMatchObject({ name: 'shout', output: 'HI', approval_request_id: request.id });
  expect(open.calls.length).toBe(callsBefore + 1);

  const again = second.output[1] as { id: string };
  const third = await create({ previous_response_id: second.id, input: [{ type: 'mcp_approval_response', approval_request_id: again.id, approve: false }], tools });
  expect(third.output.map((i) => i.type)).toEqual(['message']);
  expect(third.output_text).toBe('Done.');
  expect(open.calls.length).toBe(callsBefore + 1);
});

test('a server that is down, one that refuses CORS, a 401 and one the settings do not allow: each says what to do, and the response goes on', async () => {
  const res = await create({
    input: 'hi',
    tools: [
      { type: 'mcp', server_label: 'down', server_url: down.url },
      { type: 'mcp', server_label: 'nocors', server_url: noCors.url },
      { type: 'mcp', server_label: 'locked', server_url: open.url, authorization: 'wrong-token-e2e' },
      { type: 'mcp', server_label: 'unlisted', server_url: unlisted.url },
    ],
  });
  expect(res.status).toBe('completed');
  expect(res.output_text).toBe('You said: hi');
  const errors = Object.fromEntries(res.output.flatMap((i) => (i.type === 'mcp_list_tools' ? [[i.server_label, i.error ?? '']] : [])));
  expect(errors.down).toMatch(/could not be reached.*CORS/s);
  expect(errors.nocors).toMatch(/could not be reached.*CORS/s);
  // It was up (the browser asked it) but sent no CORS headers: the POST never went out.
  expect(noCors.preflights).toBeGreaterThan(0);
  expect(noCors.requests).toBe(0);
  expect(errors.locked).toMatch(/HTTP 401.*'authorization'/);
  expect(errors.unlisted).toMatch(/not contacted.*private-network.*settings/s);
  expect(unlisted.requests).toBe(0);
  expect(JSON.stringify(res)).not.toContain('wrong-token-e2e');
});

test('in the chat app: the token is given in Settings, the approval card shows the call, Approve makes it', async () => {
  const chat = await openChat(page.context(), e2e.app.origin);
  await chat.getByRole('button', { name: 'Settings' }).click();
  const dialog = chat.getByRole('dialog', { name: 'Settings' });
  // Only the working server stays; its token is given for this tab only.
  await dialog.getByRole('button', { name: 'Remove MCP server s1' }).click();
  await dialog.getByRole('button', { name: 'Remove MCP server s2' }).click();
  await dialog.getByLabel('Token for s0 (kept for this tab only)').fill(TOKEN);
  await dialog.getByRole('group', { name: 'MCP servers' }).scrollIntoViewIfNeeded();
  await screenshot(chat, 'mcp-settings');
  await chat.getByRole('button', { name: 'Close Settings' }).click();
  const callsBefore = open.calls.length;

  await send(chat, script([call('s0__shout', { text: 'hello' }), 'Shouted.']));
  await waitForAnswer(chat);
  const card = lastTurn(chat).getByRole('region', { name: 'Approval request: shout on s0' });
  await expect(card.locator('.function-args').textContent()).resolves.toContain('"text": "hello"');
  expect(open.calls.length).toBe(callsBefore); // nothing is called before the person says so
  await screenshot(chat, 'mcp-approval-card');

  await card.getByRole('button', { name: 'Approve shout on s0' }).click();
  await lastTurn(chat).getByText('Approved: shout on s0').waitFor();
  await waitForAnswer(chat);
  const made = lastTurn(chat).getByRole('region', { name: 'MCP call shout on s0' });
  await expect(made.getByLabel('Output').textContent()).resolves.toBe('HELLO');
  await expect(lastTurn(chat).locator('.message-text').textContent()).resolves.toContain('Shouted.');
  expect(open.calls.slice(callsBefore)).toEqual([{ name: 'shout', args: { text: 'hello' }, authorization: `Bearer ${TOKEN}` }]);
  // The answered card shows the decision and offers the buttons no more.
  const answered = chat.locator('li.turn').nth(-2).getByRole('region', { name: 'Approval request: shout on s0' });
  await expect(answered.getAttribute('data-decision')).resolves.toBe('approved');
  await expect(answered.getByRole('button').count()).resolves.toBe(0);
  await screenshot(chat, 'mcp-approved-call');
  await chat.close();
});

test('no authorization value is found anywhere in IndexedDB', async () => {
  const found = await page.evaluate(async (secrets) => {
    const hits: string[] = [];
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(info.name!);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      for (const name of Array.from(db.objectStoreNames)) {
        const rows = await new Promise<unknown[]>((resolve) => {
          const r = db.transaction(name).objectStore(name).getAll();
          r.onsuccess = () => resolve(r.result);
        });
        const text = JSON.stringify(rows);
        for (const secret of secrets) if (text.includes(secret)) hits.push(`${info.name}/${name}: ${secret}`);
      }
      db.close();
    }
    return hits;
  }, [TOKEN, 'wrong-token-e2e']);
  expect(found).toEqual([]);
});

test('a deferred server (defer_loading): tool_search loads one of its tools, the model calls it through the real server, and it stays loaded down the chain', async () => {
  const tools = [{ type: 'tool_search' }, mcpTool(open, { require_approval: 'never', defer_loading: true, server_description: 'Arithmetic.' })];
  const callsBefore = open.calls.length;
  const first = await create({ input: script([call('tool_search', { query: 'upper case' }), call('calc__shout', { text: 'deferred' }), 'Shouted.']), tools });
  expect(first.output.map((i) => i.type)).toEqual(['mcp_list_tools', 'tool_search_call', 'tool_search_output', 'mcp_call', 'message']);
  const loaded = first.output[2] as unknown as { tools: Array<Record<string, unknown>> };
  expect(loaded.tools).toEqual([{ type: 'mcp', server_label: 'calc', server_url: open.url, server_description: 'Arithmetic.', require_approval: 'never', defer_loading: true, allowed_tools: ['shout'] }]);
  expect(first.output[3]).toMatchObject({ type: 'mcp_call', name: 'shout', output: 'DEFERRED', status: 'completed' });
  expect(open.calls.at(-1)).toEqual({ name: 'shout', args: { text: 'deferred' }, authorization: `Bearer ${TOKEN}` });
  expect(JSON.stringify(first)).not.toContain(TOKEN);

  // Next turn: the loaded tool is still callable; `add` was never loaded, so its call is only text.
  const next = await create({ previous_response_id: first.id, input: script([call('calc__shout', { text: 'again' }), 'Again.']), tools });
  expect(next.output.map((i) => i.type)).toEqual(['mcp_call', 'message']);
  expect(next.output[0]).toMatchObject({ name: 'shout', output: 'AGAIN' });
  const unloaded = await create({ previous_response_id: first.id, input: script([call('calc__add', { a: 1, b: 2 })]), tools });
  expect(unloaded.output.map((i) => i.type)).toEqual(['message']);
  expect(open.calls.length).toBe(callsBefore + 2);
});
