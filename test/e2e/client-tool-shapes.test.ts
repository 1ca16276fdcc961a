/**
 * The tool shapes of today's agent SDKs, with the SDKs bundled into the page (Chromium), on
 * `test-scripted` through the service worker: the Agents SDK's `shellTool`, `applyPatchTool`
 * and `toolNamespace`, and the AI SDK's `openai.tools.shell`/`localShell`/`applyPatch`/
 * `customTool` (a custom tool round trip; a grammar the model cannot honour is refused).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openApp, startE2E } from '../support/browser';
import { clientBundle } from '../support/client-bundle';
import type * as AgentsTools from './clients/agents-tools';
import type * as AiTools from './clients/ai-sdk-tools';

declare global {
  interface Window {
    agentsTools?: typeof AgentsTools;
    aiTools?: typeof AiTools;
  }
}

let e2e: Awaited<ReturnType<typeof startE2E>>;
let page: Page;
beforeAll(async () => {
  const [started, agents, ai] = await Promise.all([startE2E(), clientBundle('agents-tools', 'agentsTools'), clientBundle('ai-sdk-tools', 'aiTools')]);
  e2e = started;
  page = await openApp(await e2e.browser.newContext({ bypassCSP: true }), e2e.app.origin);
  await page.addScriptTag({ content: agents });
  await page.addScriptTag({ content: ai });
}, 180_000);
afterAll(() => e2e?.close());

test('Agents SDK shellTool: declared as a local shell; the shell_call runs in the page and its output goes back', async () => {
  const result = await page.evaluate(() => window.agentsTools!.shell());
  expect(result.finalOutput).toBe('Two commands ran.');
  expect(result.ran).toEqual([['ls', 'pwd']]);
  expect(result.requests[0]!.tools).toEqual([{ type: 'shell', environment: { type: 'local' } }]);
  expect(result.requests[1]!.input).toContain('shell_call_output');
});

test('Agents SDK applyPatchTool: the apply_patch_call reaches the editor and its result goes back', async () => {
  const result = await page.evaluate(() => window.agentsTools!.applyPatch());
  expect(result.finalOutput).toBe('The file is there.');
  expect(result.files).toEqual({ 'notes/hello.md': '# Hello\nworld' });
  expect(result.requests[0]!.tools).toEqual([{ type: 'apply_patch' }]);
  expect(result.requests[1]!.input).toContain('apply_patch_call_output');
});

test('Agents SDK toolNamespace: a namespace tool; the namespaced call reaches its function', async () => {
  const result = await page.evaluate(() => window.agentsTools!.namespaced());
  expect(result.declared).toEqual([{ type: 'namespace', name: 'crm', members: ['lookup', 'note'] }]);
  expect(result.looked).toEqual(['a@b.c']);
  expect(result.finalOutput).toBe('It is Alice.');
});

test('AI SDK openai.tools.shell: the call runs in the page; the next request carries the call (by item_reference) and its output', async () => {
  const result = await page.evaluate(() => window.aiTools!.shell());
  expect(result.text).toBe('Done.');
  expect(result.ran).toEqual([['whoami']]);
  expect(result.secondInput).toEqual(['user', 'item_reference', 'shell_call_output']);
});

test('AI SDK openai.tools.localShell: a local_shell_call and its output (sent with call_id)', async () => {
  const result = await page.evaluate(() => window.aiTools!.localShell());
  expect(result.text).toBe('Echoed.');
  expect(result.ran).toEqual([['echo', 'hi']]);
  expect(result.secondInput.at(-1)).toBe('local_shell_call_output');
});

test('AI SDK openai.tools.applyPatch, streamed: the operation reaches execute; tool call, result, answer', async () => {
  const result = await page.evaluate(() => window.aiTools!.applyPatch());
  expect(result.text).toBe('Patched.');
  expect(result.operations).toEqual([{ type: 'update_file', path: 'src/a.ts', diff: '@@\n-old\n+new' }]);
  expect(result.parts).toEqual(['tool-call', 'tool-result', 'finish-step', 'finish-step']);
  expect(result.secondInput.at(-1)).toBe('apply_patch_call_output');
});

test('AI SDK openai.tools.customTool: a custom tool round trip (custom_tool_call in, custom_tool_call_output back)', async () => {
  const result = await page.evaluate(() => window.aiTools!.customTool());
  expect(result.declared).toEqual([{ type: 'custom', name: 'run_sql', description: 'Run one SQL query.', format: { type: 'text' } }]);
  expect(result.inputs).toEqual(['SELECT 1']);
  expect(result.text).toBe('One row.');
  // The call travels as an item_reference (store: true), which the server resolves to the stored custom_tool_call.
  expect(result.secondInput.slice(-2)).toEqual(['item_reference', 'custom_tool_call_output']);
});

test('AI SDK customTool with a grammar test-scripted cannot honour: a 400 naming the syntax, not an unconstrained call', async () => {
  const error = await page.evaluate(() => window.aiTools!.grammarRefused());
  expect(error).toMatchObject({ status: 400 });
  expect(error!.message).toMatch(/regex/);
});
