/**
 * The MessagePort transport end to end in one thread: `fetchOverPort` (requester side)
 * against `serveRequests` (runtime side). Browser-only parts (Web
 * Locks, the SW) are covered by test/e2e.
 */
import { afterEach, expect, test } from 'vitest';
import { fetchOverPort, RuntimeGoneError, sendOverPort, toWire, type RuntimeLink } from './port-fetch';
import { CONNECTION_DEADLINE_HEADER } from '../protocol/connection-deadline';
import type { ConnectMessage } from './wire';
import { PeerWatch, serveRequests, type RequestHandler } from './serve-requests';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

/** Wires a requester link to `handler`; `killPeer()` plays the requester dying. */
function connect(handler: RequestHandler) {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  let killPeer!: () => void;
  const peerDead = new Promise<void>((resolve) => (killPeer = resolve));
  serveRequests(port1, handler, { peers: new PeerWatch(() => peerDead) });
  const gone = new AbortController();
  const link: RuntimeLink = { port: port2, peerLock: 'peer-1', gone: gone.signal };
  return { link, killPeer, killRuntime: () => gone.abort() };
}

/** A body that yields `parts` on demand and records when it was cancelled. */
function slowBody(parts: string[], record: { cancelled?: unknown }) {
  const encoder = new TextEncoder();
  let i = 0;
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (i < parts.length) c.enqueue(encoder.encode(parts[i++]));
      else if (parts.length > 0) c.close();
    },
    cancel(reason) {
      record.cancelled = reason ?? true;
    },
  });
}

test('a request crosses with method, headers and body; the answer with status, headers and body', async () => {
  const { link } = connect(async (request) => {
    const echo = { method: request.method, url: request.url, type: request.headers.get('content-type'), body: await request.text() };
    return Response.json(echo, { status: 201, headers: { 'x-test': 'yes' } });
  });
  const { response } = await fetchOverPort(
    link,
    new Request('http://local/v1/responses', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' }),
  );
  expect(response.status).toBe(201);
  expect(response.headers.get('x-test')).toBe('yes');
  expect(await response.json()).toEqual({ method: 'POST', url: 'http://local/v1/responses', type: 'application/json', body: '{"a":1}' });
});

test('a streamed body arrives whole and in order; `finished` settles after it', async () => {
  const parts = Array.from({ length: 50 }, (_, i) => `data: ${i}\n\n`);
  const { link } = connect(async () => new Response(slowBody(parts, {})));
  const { response, finished } = await fetchOverPort(link, new Request('http://local/v1/x'));
  expect(await response.text()).toBe(parts.join(''));
  await finished;
});

test('cancelling the body aborts the request signal and cancels the server body', async () => {
  const record: { cancelled?: unknown } = {};
  let signal!: AbortSignal;
  const { link } = connect(async (request) => {
    signal = request.signal;
    return new Response(slowBody(Array(1000).fill('x'), record));
  });
  const { response, finished } = await fetchOverPort(link, new Request('http://local/v1/x'));
  const reader = response.body!.getReader();
  await reader.read();
  await reader.cancel('bye');
  await finished;
  await expect.poll(() => signal.aborted).toBe(true);
  await expect.poll(() => record.cancelled !== undefined).toBe(true);
});

test('the requester dying (peer lock released) aborts its requests', async () => {
  let signal!: AbortSignal;
  const record: { cancelled?: unknown } = {};
  const { link, killPeer } = connect(async (request) => {
    signal = request.signal;
    return new Response(slowBody(Array(1000).fill('x'), record));
  });
  const { response } = await fetchOverPort(link, new Request('http://local/v1/x'));
  await response.body!.getReader().read();
  killPeer();
  await expect.poll(() => signal.aborted).toBe(true);
  await expect.poll(() => record.cancelled !== undefined).toBe(true);
});

test('the runtime dying mid-body errors the body (a network error for the client)', async () => {
  const { link, killRuntime } = connect(async () => new Response(slowBody(Array(1000).fill('x'), {})));
  const { response } = await fetchOverPort(link, new Request('http://local/v1/x'));
  const reader = response.body!.getReader();
  await reader.read();
  killRuntime();
  await expect(async () => {
    for (;;) if ((await reader.read()).done) break;
  }).rejects.toBeInstanceOf(RuntimeGoneError);
});

test('a handler that throws becomes a 500 in the OpenAI error shape', async () => {
  const { link } = connect(async () => {
    throw new Error('store is broken');
  });
  const { response } = await fetchOverPort(link, new Request('http://local/v1/models'));
  expect(response.status).toBe(500);
  expect(await response.json()).toEqual({
    error: { type: 'server_error', code: 'runtime_error', message: 'store is broken', param: null },
  });
});

test('a runtime already gone is reported before anything is sent', async () => {
  const { link, killRuntime } = connect(async () => new Response('never'));
  killRuntime();
  await expect(fetchOverPort(link, new Request('http://local/v1/models'))).rejects.toBeInstanceOf(RuntimeGoneError);
});

test('a runtime dying before it accepted a request says so (the SW may resend it)', async () => {
  const { port2 } = new MessageChannel(); // nobody serves the other end
  ports.push(port2);
  const gone = new AbortController();
  const pending = fetchOverPort({ port: port2, peerLock: 'p', gone: gone.signal }, new Request('http://local/v1/x'));
  setTimeout(() => gone.abort(), 10);
  await expect(pending).rejects.toMatchObject({ name: 'RuntimeGoneError', accepted: false });
});

test('a runtime dying after it accepted a request says so (it may have started: no resend)', async () => {
  const { link, killRuntime } = connect(() => new Promise<Response>(() => {}));
  const pending = fetchOverPort(link, new Request('http://local/v1/x', { method: 'POST', body: 'x' }));
  setTimeout(killRuntime, 20);
  await expect(pending).rejects.toMatchObject({ name: 'RuntimeGoneError', accepted: true });
});

test('aborting the request before the head arrives cancels it in the runtime', async () => {
  let signal!: AbortSignal;
  const { link } = connect(async (request) => {
    signal = request.signal;
    await new Promise((resolve) => request.signal.addEventListener('abort', resolve));
    return new Response('late');
  });
  const controller = new AbortController();
  const pending = fetchOverPort(link, new Request('http://local/v1/x', { signal: controller.signal }));
  await expect.poll(() => signal !== undefined).toBe(true);
  controller.abort(new Error('user gave up'));
  await expect(pending).rejects.toThrow('user gave up');
  await expect.poll(() => signal.aborted).toBe(true);
});

test('chunks queued together cross as one message', async () => {
  const encoder = new TextEncoder();
  const { link } = connect(async () => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 100; i++) c.enqueue(encoder.encode(`${i},`));
        c.close();
      },
    });
    return new Response(body);
  });
  const { response } = await fetchOverPort(link, new Request('http://local/v1/x'));
  const reader = response.body!.getReader();
  const chunks: string[] = [];
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(new TextDecoder().decode(r.value));
  expect(chunks.join('')).toBe(Array.from({ length: 100 }, (_, i) => `${i},`).join(''));
  expect(chunks.length).toBeLessThan(10);
});

test('the connection deadline reaches the server only from the transport: a requester cannot set it, the service worker budget does', async () => {
  const seen: (string | null)[] = [];
  const { link } = connect(async (request) => {
    seen.push(request.headers.get(CONNECTION_DEADLINE_HEADER));
    return new Response('ok');
  });
  const forged = new Request('http://local/v1/models', { headers: { [CONNECTION_DEADLINE_HEADER]: '5' } });
  await (await fetchOverPort(link, forged)).response.text();
  const wire = (await toWire(new Request('http://local/v1/models')))!;
  await (await sendOverPort(link, wire, new AbortController().signal, Date.now() + 60_000)).response.text();
  expect(seen[0]).toBeNull();
  expect(Number(seen[1])).toBeGreaterThan(59_000);
  expect(Number(seen[1])).toBeLessThanOrEqual(60_000);
});

test('a page connected through a runtime port gets a port of its own: told the runtime lock, served on it, closed when the page dies', async () => {
  const { port1: runtimeSide, port2: swSide } = new MessageChannel();
  ports.push(runtimeSide, swSide);
  let pageDies!: () => void;
  const pageDead = new Promise<void>((resolve) => (pageDies = resolve));
  serveRequests(runtimeSide, async (request) => new Response(`served ${new URL(request.url).pathname}`), {
    peers: new PeerWatch((lock) => (lock === 'page-1' ? pageDead : new Promise(() => {}))),
    runtimeLock: 'runtime-1',
  });
  const { port1: page, port2: pagesOther } = new MessageChannel();
  ports.push(page);
  const connected = new Promise<unknown>((resolve) => (page.onmessage = (event) => resolve(event.data)));
  swSide.postMessage({ type: 'connect', port: pagesOther, peerLock: 'page-1' } satisfies ConnectMessage, [pagesOther]);
  expect(await connected).toEqual({ type: 'connected', runtimeLock: 'runtime-1' });
  page.onmessage = null;
  const gone = new AbortController();
  const { response } = await fetchOverPort({ port: page, peerLock: 'page-1', gone: gone.signal }, new Request('http://local/v1/models'));
  expect(await response.text()).toBe('served /v1/models');
  // The page dies: its port is closed in the runtime, so a later request is never answered.
  pageDies();
  await new Promise((resolve) => setTimeout(resolve, 10));
  const late = fetchOverPort({ port: page, peerLock: 'page-1', gone: gone.signal }, new Request('http://local/v1/models'));
  const outcome = await Promise.race([late.then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('unanswered'), 100))]);
  expect(outcome).toBe('unanswered');
  gone.abort();
  await late.catch(() => {});
});
