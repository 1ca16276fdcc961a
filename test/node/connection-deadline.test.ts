/**
 * A request whose connection will be cut at a known time (the service worker's fetch, which
 * Chromium ends after ~5 minutes; the transport tells the server with a header) is answered
 * before that as an API answer: a plain request that could not start gets a 503 with
 * `Retry-After` and is never run; a stream ends with an `error` event (a background one saying
 * how to resume, and resuming as told gives the rest). Deadlines here are a fraction of a second.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { APIError } from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { CONNECTION_DEADLINE_HEADER } from '../../src/protocol/connection-deadline';
import { ScriptedEngine } from '../../src/engine/scripted-engine';
import type { GenerateRequest } from '../../src/ports/engine';
import { closeAndCheck, failed, localClient, script, type LocalClient } from '../support/local-client';

/** The scripted engine, counting what it is asked to generate. */
class CountingEngine extends ScriptedEngine {
  readonly prompts: string[] = [];
  override generate(request: GenerateRequest) {
    this.prompts.push(JSON.stringify(request));
    return super.generate(request);
  }
}

let local: LocalClient;
let engine: CountingEngine;
beforeEach(async () => {
  engine = new CountingEngine();
  local = await localClient({ engine });
});
afterEach(() => closeAndCheck(local));

const deadline = (ms: number) => ({ headers: { [CONNECTION_DEADLINE_HEADER]: String(ms) } });
/** A background response that keeps the model busy for ~`ms`. */
async function busyFor(ms: number): Promise<string> {
  const tokens = Math.ceil(ms / 20);
  const r = await local.client.responses.create({ model: 'test-scripted', input: script('x'.repeat(tokens * 4), { delay_ms: 20 }), background: true });
  return r.id;
}
async function settled(id: string): Promise<string> {
  for (;;) {
    const r = await local.client.responses.retrieve(id);
    if (r.status !== 'queued' && r.status !== 'in_progress') return r.status ?? 'unknown';
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const NEVER = 'this request must never run';
const ranNever = () => !engine.prompts.some((p) => p.includes(NEVER));

test('a plain request that cannot start before the deadline: 503 queue_timeout with Retry-After, and it never runs later', async () => {
  const busy = await busyFor(1_000);
  const t0 = Date.now();
  const error = await failed(local.client.responses.create({ model: 'test-scripted', input: NEVER }, deadline(300)));
  const ms = Date.now() - t0;
  expect(error.status).toBe(503);
  expect(error.headers?.get('retry-after')).toBe('30');
  expect(error.error).toMatchObject({ type: 'server_error', code: 'queue_timeout', param: null });
  expect(error.message).toMatch(/waited \d+ s behind other work .* it was not run and will not run/);
  expect(ms).toBeGreaterThanOrEqual(290);
  expect(ms).toBeLessThan(900); // answered at the deadline, not when the busy one ended
  // Out of the line for good: the engine is free later and still never sees it.
  expect(await settled(busy)).toBe('completed');
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(ranNever()).toBe(true);
  const stored = (await local.store.listStored()).filter((s) => s.id !== busy);
  expect(stored.map((s) => s.status)).toEqual(['failed']);
});

test('a plain request that can start in time runs as usual, deadline or not', async () => {
  const busy = await busyFor(150);
  const r = await local.client.responses.create({ model: 'test-scripted', input: 'in time' }, deadline(5_000));
  expect(r.output_text).toBe('You said: in time');
  expect(await settled(busy)).toBe('completed');
});

test('a plain request still running at the deadline is stopped and answered 504 connection_time_limit (no automatic retry)', async () => {
  const error = await failed(local.client.responses.create({ model: 'test-scripted', input: script('y'.repeat(400), { delay_ms: 20 }) }, deadline(300)));
  expect(error.status).toBe(504);
  expect(error.headers?.get('x-should-retry')).toBe('false');
  expect(error.error).toMatchObject({ code: 'connection_time_limit' });
  const id = /The response (resp_\w+) ran/.exec(error.message)?.[1];
  expect(id).toBeDefined();
  expect(await settled(id!)).toBe('incomplete');
});

type ErrorEvent = Extract<ResponseStreamEvent, { type: 'error' }>;

/**
 * The stream's events; an `error` event ends it. The SDK throws an `APIError` made of the
 * event's `error` (an API error, with its code and message, never a network failure): the
 * event is read back from it here, with the sequence number it must have had.
 */
async function readAll(stream: AsyncIterable<ResponseStreamEvent>): Promise<ResponseStreamEvent[]> {
  const events: ResponseStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    if (!(error instanceof APIError) || error.status !== undefined) throw error;
    const { code, message } = error.error as { code: string; message: string };
    events.push({ type: 'error', code, message, param: null, sequence_number: (events.at(-1)?.sequence_number ?? -1) + 1 } as ErrorEvent);
  }
  return events;
}

test('a foreground stream that cannot start before the deadline ends with an error event, and never runs later', async () => {
  const busy = await busyFor(1_000);
  const events = await readAll(await local.client.responses.create({ model: 'test-scripted', input: NEVER, stream: true }, deadline(300)));
  expect(events.map((e) => e.type)).toEqual(['response.created', 'response.queued', 'error']);
  const last = events.at(-1) as ErrorEvent;
  expect(last).toMatchObject({ code: 'queue_timeout', sequence_number: events.at(-2)!.sequence_number + 1 });
  expect(last.message).toMatch(/waited \d+ s behind other work/);
  expect(await settled(busy)).toBe('completed');
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(ranNever()).toBe(true);
});

test('a background stream at the deadline ends with an error event saying how to resume; resuming as told gives the rest', async () => {
  const text = 'The quick brown fox jumps over the lazy dog. '.repeat(4);
  const first = await readAll(
    await local.client.responses.create({ model: 'test-scripted', input: script(text, { delay_ms: 15 }), stream: true, background: true }, deadline(300)),
  );
  const last = first.at(-1) as ErrorEvent;
  expect(last.type).toBe('error');
  expect(last.code).toBe('connection_time_limit');
  const id = (first[0] as Extract<ResponseStreamEvent, { type: 'response.created' }>).response.id;
  const after = Number(/starting_after=(\d+)/.exec(last.message)?.[1]);
  expect(last.message).toContain(`GET /v1/responses/${id}?stream=true&starting_after=${after}`);
  expect(after).toBe(first.at(-2)!.sequence_number);
  const rest = await readAll(await local.client.responses.retrieve(id, { stream: true, starting_after: after }));
  expect(rest[0]!.sequence_number).toBe(after + 1);
  expect(rest.at(-1)!.type).toBe('response.completed');
  const deltas = [...first, ...rest].flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : []));
  expect(deltas.join('')).toBe(text);
});

test('a foreground stream running at the deadline ends with an error event, and the response is stopped (incomplete)', async () => {
  const events = await readAll(await local.client.responses.create({ model: 'test-scripted', input: script('z'.repeat(400), { delay_ms: 20 }), stream: true }, deadline(300)));
  const last = events.at(-1) as ErrorEvent;
  expect(last).toMatchObject({ type: 'error', code: 'connection_time_limit' });
  const id = (events[0] as Extract<ResponseStreamEvent, { type: 'response.created' }>).response.id;
  expect(last.message).toContain(id);
  expect(await settled(id)).toBe('incomplete');
});

test('a resumed stream through the same kind of connection ends before its deadline too, saying where to go on', async () => {
  const created = await local.client.responses.create({ model: 'test-scripted', input: script('w'.repeat(200), { delay_ms: 20 }), background: true });
  const part = await readAll(await local.client.responses.retrieve(created.id, { stream: true, starting_after: 2 }, deadline(200)));
  const last = part.at(-1) as ErrorEvent;
  expect(last).toMatchObject({ type: 'error', code: 'connection_time_limit' });
  expect(last.message).toContain(`starting_after=${part.at(-2)!.sequence_number}`);
  expect(await settled(created.id)).toBe('completed');
});
