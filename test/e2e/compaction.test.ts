/**
 * Compaction in Chromium (issue 18, item 3): a chat in the app that outgrows the scripted
 * model's context window is compacted by the runtime (the app asks for
 * `context_management: [{type: "compaction"}]`) and goes on; and through the SDK in the
 * page, `responses.compact` and a low `compact_threshold` work across the service worker,
 * with the compaction item sealed under the origin's IndexedDB key.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startE2E } from '../support/browser';
import { DESKTOP, lastTurn, openChat, send, waitForAnswer } from './app-support';

let e2e: Awaited<ReturnType<typeof startE2E>>;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E();
  context = await e2e.browser.newContext({ viewport: DESKTOP });
  page = await openChat(context, e2e.app.origin);
});
afterAll(async () => {
  await context?.close();
  await e2e?.close();
});

test('a chat in the app that outgrows the context window is compacted and goes on', async () => {
  // Each message is ~25k of the scripted model's 32,768 tokens: two never fit together.
  const message = (n: number) => JSON.stringify({ script: `Noted ${n}.`, padding: 'x'.repeat(100_000) });
  for (let turn = 1; turn <= 3; turn++) {
    await send(page, message(turn));
    await waitForAnswer(page);
    expect(await lastTurn(page).locator('.answer').innerText()).toContain(`Noted ${turn}.`);
    expect(await lastTurn(page).locator('.compaction-note').count()).toBe(turn === 1 ? 0 : 1);
  }
});

test('through the SDK in the page: compact, send the window back, and compact_threshold on create', async () => {
  const result = await page.evaluate(async () => {
    const sdk = window.sdk!;
    const model = 'test-scripted';
    const history = [
      { role: 'user' as const, content: 'My name is Alice.' },
      { role: 'assistant' as const, content: 'Hello Alice.' },
      { role: 'user' as const, content: 'Remember it.' },
    ];
    const compacted = await sdk.responses.compact({ model, input: history });
    const next = await sdk.responses.create({ model, input: [...(compacted.output as unknown as typeof history), { role: 'user', content: 'Go on.' }] });
    const first = await sdk.responses.create({ model, input: 'A long first turn. '.repeat(40) });
    const auto = await sdk.responses.create({ model, input: 'Short.', previous_response_id: first.id, context_management: [{ type: 'compaction', compact_threshold: 100 }] });
    return { types: compacted.output.map((i) => i.type), next: next.output_text, auto: auto.output.map((i) => i.type), autoText: auto.output_text };
  });
  expect(result.types).toEqual(['message', 'message', 'compaction']);
  expect(result.next).toBe('You said: Go on.');
  expect(result.auto).toEqual(['compaction', 'message']);
  expect(result.autoText).toBe('You said: Short.');
});
