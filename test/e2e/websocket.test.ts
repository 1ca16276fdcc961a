/**
 * WebSocket mode in the page (Chromium): any script of the app's origin opens
 * `new WebSocket(ws://<origin>/v1/responses)` and reaches the runtime — in the tab that runs
 * it over its own port, in any other tab through the service worker (which passes the
 * connection on; frames go page ⇄ runtime). The Open Responses compliance suite's seven
 * WebSocket scenarios, lanes, malformed frames, closed tabs, and a leak check.
 * Frames are validated here against the Open Responses document.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openApp, startE2E } from '../support/browser';
import { clientBundle } from '../support/client-bundle';
import { probeHeap } from '../support/heap-usage';
import { checkEvent } from '../support/local-client';
import { validateResponseObject, validateWebSocketError } from '../support/openresponses-validator';
import type * as Kit from './clients/websocket';

declare global {
  interface Window {
    wsKit?: typeof Kit;
    /** Connections a test keeps across `evaluate` calls. */
    conns?: Record<string, Kit.Connection>;
  }
}

let e2e: Awaited<ReturnType<typeof startE2E>>;
let bundle: string;
let page: Page;

async function openKitPage(context: Awaited<ReturnType<typeof e2e.browser.newContext>>): Promise<Page> {
  const opened = await openApp(context, e2e.app.origin);
  await opened.addScriptTag({ content: bundle });
  await opened.evaluate(() => void (window.conns = {}));
  return opened;
}

beforeAll(async () => {
  const [started, built] = await Promise.all([startE2E(), clientBundle('websocket', 'wsKit')]);
  e2e = started;
  bundle = built;
  // The kit is injected inline, which the app's CSP refuses (a developer's code would be a file of the origin).
  page = await openKitPage(await e2e.browser.newContext({ bypassCSP: true }));
}, 120_000);
afterAll(() => e2e?.close());

type Frame = Kit.Frame;

/** Validates every frame of a turn against the Open Responses document; returns the terminal one. */
function validated(turn: Frame[]): Frame {
  for (const { stream_id: _lane, ...frame } of turn) {
    if (frame.type === 'error') validateWebSocketError(frame);
    else checkEvent(frame as Parameters<typeof checkEvent>[0]);
  }
  const last = turn.at(-1)!;
  if (last.type !== 'error') validateResponseObject(last.response);
  return last;
}

test('any script of the origin: new WebSocket(ws://<origin>/v1/responses) streams a turn; other URLs get the browser’s own WebSocket', async () => {
  const result = await page.evaluate(async () => {
    const { Connection, socketUrl } = window.wsKit!;
    const ws = new WebSocket(socketUrl(), ['chat']);
    const states = [ws.readyState];
    const c = new Connection(ws);
    await c.ready;
    states.push(ws.readyState);
    const turn = await c.create({ model: 'test-scripted', input: 'over a socket' });
    ws.close(1000, 'done');
    const closed = await c.closed();
    states.push(ws.readyState);
    // Another URL: the browser's own WebSocket (it fails to connect: nothing listens there).
    const other = new WebSocket('ws://127.0.0.1:9/v1/responses');
    const otherClose = await new Promise<number>((resolve) => other.addEventListener('close', (e) => resolve(e.code)));
    return {
      turn,
      states,
      closed,
      protocol: ws.protocol,
      isWebSocket: ws instanceof WebSocket,
      otherIsNative: Object.getPrototypeOf(other) === WebSocket.prototype,
      otherClose,
      origin: location.origin,
    };
  });
  const done = validated(result.turn);
  expect((done.response as { output_text: string }).output_text).toBe('You said: over a socket');
  expect(result.turn.map((f) => f.sequence_number)).toEqual(result.turn.map((_, i) => i));
  expect(result.states).toEqual([0, 1, 3]);
  expect(result.closed).toEqual({ code: 1000, reason: 'done', wasClean: true });
  expect(result.protocol).toBe('chat');
  expect(result.isWebSocket).toBe(true);
  expect(result.otherIsNative).toBe(true);
  expect(result.otherClose).toBe(1006);
  // An ordinary stored response: the SDK over HTTP retrieves it.
  const id = (done.response as { id: string }).id;
  expect(await page.evaluate(async (id) => (await window.sdk!.responses.retrieve(id)).output_text, id)).toBe('You said: over a socket');
});

describe('the Open Responses compliance suite’s WebSocket scenarios, through the in-page socket', () => {
  const ids = [
    'websocket-response',
    'websocket-sequential-responses',
    'websocket-continuation',
    'websocket-reconnect-store-false-recovery',
    'websocket-previous-response-not-found',
    'websocket-failed-continuation-evicts-cache',
    'websocket-compact-new-chain',
  ];
  test.each(ids)('%s', async (id) => {
    const result = await page.evaluate((id) => window.wsKit!.compliance[id]!(), id);
    expect(result.problems).toEqual([]);
    expect(result.turns.length).toBeGreaterThan(0);
    for (const turn of result.turns) validated(turn);
  });
});

test('two lanes at once, and a lane forked from another lane’s response', async () => {
  const result = await page.evaluate(async () => {
    const c = await window.wsKit!.Connection.open();
    const slow = JSON.stringify({ script: 'one two three four five', delay_ms: 20, chunk: 3 });
    c.send({ type: 'response.create', model: 'test-scripted', store: false, input: slow, stream_id: 'a' });
    c.send({ type: 'response.create', model: 'test-scripted', store: false, input: slow, stream_id: 'b' });
    const [a, b] = await Promise.all([c.turn('a'), c.turn('b')]);
    const aId = (a.at(-1)!.response as { id: string }).id;
    const fork = await c.create({ model: 'test-scripted', store: false, previous_response_id: aId, input: 'forked from a' }, 'c');
    const order = c.frames.map((f) => `${f.stream_id}:${f.type}`);
    c.ws.close();
    return { a, b, fork, order };
  });
  for (const turn of [result.a, result.b, result.fork]) expect((validated(turn).response as { status: string }).status).toBe('completed');
  expect(result.a.every((f) => f.stream_id === 'a') && result.b.every((f) => f.stream_id === 'b') && result.fork.every((f) => f.stream_id === 'c')).toBe(true);
  // Both lanes had started before either ended (b waits for the engine: queued, then runs).
  expect(result.order.indexOf('b:response.created')).toBeLessThan(result.order.indexOf('a:response.completed'));
  expect((result.fork.at(-1)!.response as { output_text: string }).output_text).toBe('You said: forked from a');
});

test('malformed frames: an error frame each, and the connection stays usable', async () => {
  const result = await page.evaluate(async () => {
    const c = await window.wsKit!.Connection.open();
    const errors: Frame[] = [];
    for (const frame of ['{oops', '"just a string"', JSON.stringify({ type: 'response.create', model: 'test-scripted' }), JSON.stringify({ type: 'nope' })]) {
      c.send(frame);
      errors.push(...(await c.turn()));
    }
    c.ws.send(new Blob(['{"type":"response.create"}']));
    errors.push(...(await c.turn()));
    const after = await c.create({ model: 'test-scripted', input: 'still open' });
    c.ws.close();
    return { errors, after, state: c.closeEvent };
  });
  expect(result.errors.map((f) => f.type)).toEqual(['error', 'error', 'error', 'error', 'error']);
  result.errors.forEach((frame) => validateWebSocketError(frame));
  expect(result.errors.map((f) => (f.error as { code: string }).code)).toEqual(['invalid_json', 'invalid_type', 'missing_required_parameter', 'invalid_value', 'invalid_value']);
  expect((validated(result.after).response as { output_text: string }).output_text).toBe('You said: still open');
});

test('a tab that does not run the runtime connects through the service worker; when the runtime’s tab closes, the socket closes (1006) and the response ends as the takeover leaves it', async () => {
  const context = await e2e.browser.newContext({ bypassCSP: true });
  const leader = await openKitPage(context);
  const other = await openKitPage(context);
  expect(await other.evaluate(() => window.localRuntime!.isLeader())).toBe(false);
  const first = await other.evaluate(async () => {
    const c = await window.wsKit!.Connection.open();
    window.conns!.main = c;
    const turn = await c.create({ model: 'test-scripted', input: 'from the other tab' });
    const seen = c.frames.length;
    c.send({ type: 'response.create', model: 'test-scripted', input: JSON.stringify({ script: 'z'.repeat(3000), delay_ms: 20 }) });
    while (!c.frames.slice(seen).some((f) => f.type === 'response.output_text.delta')) await new Promise((r) => setTimeout(r, 20));
    return { turn, running: (c.frames[seen]!.response as { id: string }).id };
  });
  expect((validated(first.turn).response as { output_text: string }).output_text).toBe('You said: from the other tab');
  await leader.close();
  const closed = await other.evaluate(async () => ({ close: await window.conns!.main!.closed(), errors: window.conns!.main!.errors }));
  expect(closed).toEqual({ close: { code: 1006, reason: '', wasClean: false }, errors: 1 });
  const outcome = await other.evaluate(async (id) => {
    for (const t0 = performance.now(); performance.now() - t0 < 20_000; await new Promise((r) => setTimeout(r, 100))) {
      try {
        const r = await window.sdk!.responses.retrieve(id);
        if (r.status !== 'in_progress' && r.status !== 'queued') return { status: r.status, message: r.error?.message, leader: window.localRuntime!.isLeader() };
      } catch {
        // 503 while this tab starts the next runtime
      }
    }
    return { status: 'still running' };
  }, first.running);
  expect(outcome).toMatchObject({ status: 'failed', leader: true });
  expect(outcome.message).toMatch(/interrupted/);
  // This tab now runs the runtime: a new connection goes straight to it.
  const again = await other.evaluate(async () => (await window.wsKit!.Connection.open()).create({ model: 'test-scripted', input: 'after takeover' }));
  expect((validated(again).response as { output_text: string }).output_text).toBe('You said: after takeover');
  await context.close();
});

test('the client’s tab closes mid-turn: its response stops as after an HTTP disconnect (incomplete)', async () => {
  const context = await e2e.browser.newContext({ bypassCSP: true });
  const leader = await openKitPage(context);
  const client = await openKitPage(context);
  const id = await client.evaluate(async () => {
    const c = await window.wsKit!.Connection.open();
    c.send({ type: 'response.create', model: 'test-scripted', input: JSON.stringify({ script: 'q'.repeat(3000), delay_ms: 20 }) });
    while (!c.frames.some((f) => f.type === 'response.output_text.delta')) await new Promise((r) => setTimeout(r, 20));
    return (c.frames[0]!.response as { id: string }).id;
  });
  await client.close();
  const status = await leader.evaluate(async (id) => {
    for (const t0 = performance.now(); performance.now() - t0 < 15_000; await new Promise((r) => setTimeout(r, 100))) {
      const r = await window.sdk!.responses.retrieve(id);
      if (r.status !== 'in_progress') return r.status;
    }
    return 'still running';
  }, id);
  expect(status).toBe('incomplete');
  await context.close();
});

test('1,000 turns on one connection (8,000+ frames) leave no memory behind in the page or the runtime worker', async () => {
  const context = await e2e.browser.newContext({ bypassCSP: true });
  const leakPage = await openKitPage(context);
  const heap = await probeHeap(context, leakPage);
  const run = (turns: number) =>
    leakPage.evaluate(async (turns) => {
      const c = window.conns!.leak ?? (window.conns!.leak = await window.wsKit!.Connection.open());
      const text = JSON.stringify({ script: 'w'.repeat(2000), chunk: 200 });
      let frames = 0;
      for (let i = 0; i < turns; i += 10) {
        const batch = Array.from({ length: 10 }, (_, k) => `l${k}`);
        batch.forEach((lane) => c.send({ type: 'response.create', model: 'test-scripted', store: false, input: text, stream_id: lane }));
        for (const lane of batch) frames += (await c.turn(lane)).length;
        // The kit keeps frames for the tests that read them; this one only counts them.
        c.frames.length = 0;
        (c as unknown as { read: Map<string, number> }).read.clear();
      }
      return frames;
    }, turns);
  await run(100);
  const before = await heap.measure();
  const frames = await run(1000);
  const after = await heap.measure();
  await heap.detach();
  expect(frames).toBeGreaterThanOrEqual(8000);
  const grown = (b: number, a: number) => a - b;
  console.log(`heap growth over 1,000 turns (${frames} frames): page ${grown(before.page, after.page)} B; workers ${JSON.stringify(Object.fromEntries(Object.entries(after.workers).map(([u, a]) => [u.split('/').pop(), grown(before.workers[u] ?? 0, a)])))}`);
  expect(grown(before.page, after.page)).toBeLessThan(1_000_000);
  const workers = Object.keys(after.workers);
  expect(workers.length).toBeGreaterThan(0);
  for (const url of workers) expect(grown(before.workers[url] ?? 0, after.workers[url]!), url).toBeLessThan(1_500_000);
  await context.close();
});

test('closed before it opened: error and close 1006 in the page, and the runtime’s end is closed too (no turn runs)', async () => {
  const result = await page.evaluate(async () => {
    const ws = new WebSocket(window.wsKit!.socketUrl());
    const events: string[] = [];
    ws.addEventListener('error', () => events.push('error'));
    const closed = new Promise<number>((resolve) => ws.addEventListener('close', (e) => resolve(e.code)));
    ws.close();
    const code = await closed;
    // The connection is usable again from a fresh socket.
    const again = await (await window.wsKit!.Connection.open()).create({ model: 'test-scripted', input: 'after' });
    return { code, events, state: ws.readyState, again: (again.at(-1)!.response as { output_text: string }).output_text };
  });
  expect(result).toEqual({ code: 1006, events: ['error'], state: 3, again: 'You said: after' });
});
