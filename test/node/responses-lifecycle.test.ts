/** Background, retrieve (also as a resumable stream), cancel, delete, failures and the queue. */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient;
beforeEach(async () => {
  local = await localClient();
});
afterEach(() => closeAndCheck(local));

async function collect(stream: AsyncIterable<ResponseStreamEvent>): Promise<ResponseStreamEvent[]> {
  const events: ResponseStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

async function waitFor(id: string, done: (status: string | undefined) => boolean) {
  for (let i = 0; i < 500; i++) {
    const r = await local.client.responses.retrieve(id);
    if (done(r.status)) return r;
    await new Promise((res) => setTimeout(res, 10));
  }
  throw new Error(`response ${id} never reached the expected status`);
}

describe('background responses', () => {
  test('answer queued at once, then complete; retrieve shows the result', async () => {
    const r = await local.client.responses.create({ model: 'test-scripted', input: script('abcdefgh', { delay_ms: 5 }), background: true });
    expect(r.status).toBe('queued');
    expect(r.background).toBe(true);
    const done = await waitFor(r.id, (s) => s === 'completed');
    expect(done.output_text).toBe('abcdefgh');
  });

  test('background + stream, then resume with starting_after gives exactly the missing events', async () => {
    const stream = await local.client.responses.create({
      model: 'test-scripted',
      input: script('one two three four five six seven', { delay_ms: 2, chunk: 2 }),
      background: true,
      stream: true,
    });
    const all = await collect(stream);
    expect(all[0]?.type).toBe('response.created');
    expect(all[1]?.type).toBe('response.queued');
    expect(all.at(-1)?.type).toBe('response.completed');
    const id = (all[0] as { response: { id: string } }).response.id;

    const resumed = await collect(await local.client.responses.retrieve(id, { stream: true, starting_after: 5 }));
    expect(resumed).toEqual(all.slice(6));
    const whole = await collect(await local.client.responses.retrieve(id, { stream: true }));
    expect(whole).toEqual(all);
  });

  test('resume while still running follows live events to the end', async () => {
    const r = await local.client.responses.create({ model: 'test-scripted', input: script('x'.repeat(40), { delay_ms: 5, chunk: 1 }), background: true, stream: true });
    const first: ResponseStreamEvent[] = [];
    for await (const e of r) {
      first.push(e);
      if (first.length === 8) break; // the client drops the connection
    }
    const id = (first[0] as { response: { id: string } }).response.id;
    const rest = await collect(await local.client.responses.retrieve(id, { stream: true, starting_after: 7 }));
    expect(rest[0]?.sequence_number).toBe(8);
    expect(rest.at(-1)?.type).toBe('response.completed');
    const text = [...first, ...rest].flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('');
    expect(text).toBe('x'.repeat(40));
  });

  test('cancel stops generation within one token and stores cancelled', async () => {
    const r = await local.client.responses.create({ model: 'test-scripted', input: script('y'.repeat(400), { delay_ms: 5, chunk: 1 }), background: true });
    await waitFor(r.id, (s) => s === 'in_progress');
    await new Promise((res) => setTimeout(res, 30));
    const cancelled = await local.client.responses.cancel(r.id);
    expect(cancelled.status).toBe('cancelled');
    const stored = await local.client.responses.retrieve(r.id);
    expect(stored.status).toBe('cancelled');
    const textAtCancel = stored.output_text;
    expect(textAtCancel.length).toBeLessThan(400);
    await new Promise((res) => setTimeout(res, 50));
    expect((await local.client.responses.retrieve(r.id)).output_text).toBe(textAtCancel);
    // Cancelling again is idempotent; cancelling a finished response is OpenAI's 400.
    expect((await local.client.responses.cancel(r.id)).status).toBe('cancelled');
    const finished = await local.client.responses.create({ model: 'test-scripted', input: 'x', background: true });
    await waitFor(finished.id, (s) => s === 'completed');
    await expect(local.client.responses.cancel(finished.id)).rejects.toMatchObject({ status: 400 });
  });

  test('cancelling a foreground response is a 400', async () => {
    const r = await local.client.responses.create({ model: 'test-scripted', input: 'x' });
    await expect(local.client.responses.cancel(r.id)).rejects.toMatchObject({ status: 400, message: expect.stringContaining('background=true') });
  });

  test('responses waiting for the engine start in the order they came (several waiting)', async () => {
    const running = await local.client.responses.create({ model: 'test-scripted', input: script('a'.repeat(20), { delay_ms: 3, chunk: 1 }), stream: true });
    // Created one after another while `a` runs: four waiters, so a LIFO (or any other) order shows.
    const waiting = [];
    for (const name of ['b', 'c', 'd', 'e']) {
      waiting.push({ name, stream: await local.client.responses.create({ model: 'test-scripted', input: script(name.repeat(4), { delay_ms: 2, chunk: 1 }), stream: true }) });
    }
    // Recorded as each stream's `response.in_progress` arrives: the runs are one after another.
    const order: string[] = [];
    const track = async (name: string, stream: AsyncIterable<ResponseStreamEvent>) => {
      for await (const e of stream) if (e.type === 'response.in_progress') order.push(name);
    };
    await Promise.all([track('a', running), ...waiting.map((w) => track(w.name, w.stream))]);
    expect(order).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  test('a queued response can be cancelled before it starts, and the next one still runs', async () => {
    const a = await local.client.responses.create({ model: 'test-scripted', input: script('a'.repeat(30), { delay_ms: 5, chunk: 1 }), background: true });
    const b = await local.client.responses.create({ model: 'test-scripted', input: script('b'), background: true });
    const c = await local.client.responses.create({ model: 'test-scripted', input: script('c'), background: true });
    expect((await local.client.responses.retrieve(b.id)).status).toBe('queued');
    expect((await local.client.responses.cancel(b.id)).status).toBe('cancelled');
    const doneC = await waitFor(c.id, (s) => s === 'completed');
    const doneA = await waitFor(a.id, (s) => s === 'completed');
    expect(doneA.output_text).toBe('a'.repeat(30));
    expect(doneC.output_text).toBe('c');
    expect((await local.client.responses.retrieve(b.id)).output).toEqual([]);
  });
});

describe('delete', () => {
  test('removes the response, its input items and its event log', async () => {
    const r = await local.client.responses.create({ model: 'test-scripted', input: 'bye', background: true });
    await waitFor(r.id, (s) => s === 'completed');
    const deleted = await local.client.responses.delete(r.id);
    expect(deleted).toEqual({ id: r.id, object: 'response.deleted', deleted: true });
    await expect(local.client.responses.retrieve(r.id)).rejects.toMatchObject({ status: 404 });
    await expect(local.client.responses.inputItems.list(r.id)).rejects.toMatchObject({ status: 404 });
    expect(await local.store.events(r.id, -1)).toEqual([]);
    expect(await local.store.inputItems(r.id)).toEqual([]);
    await expect(local.client.responses.delete(r.id)).rejects.toMatchObject({ status: 404 });
  });

  test('deleting a running response stops it and nothing is written back', async () => {
    const r = await local.client.responses.create({ model: 'test-scripted', input: script('z'.repeat(200), { delay_ms: 3, chunk: 1 }), background: true });
    await waitFor(r.id, (s) => s === 'in_progress');
    await local.client.responses.delete(r.id);
    await new Promise((res) => setTimeout(res, 60));
    await expect(local.client.responses.retrieve(r.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('failures and limits', () => {
  test('max_output_tokens ends incomplete with a response.incomplete event', async () => {
    const events = await collect(
      await local.client.responses.create({ model: 'test-scripted', input: script('w'.repeat(100), { chunk: 1 }), max_output_tokens: 16, stream: true }),
    );
    const last = events.at(-1);
    expect(last?.type).toBe('response.incomplete');
    const r = (last as { response: { id: string } }).response;
    const stored = await local.client.responses.retrieve(r.id);
    expect(stored.status).toBe('incomplete');
    expect(stored.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(stored.output_text).toBe('w'.repeat(16));
    expect(stored.usage?.output_tokens).toBe(16);
    expect(stored.output[0]).toMatchObject({ status: 'incomplete' });
  });

  test('an engine failure mid-stream ends failed with an actionable error', async () => {
    const events = await collect(
      await local.client.responses.create({ model: 'test-scripted', input: script('v'.repeat(40), { fail_after: 3 }), stream: true }),
    );
    const last = events.at(-1) as { type: string; response: { id: string; error: { message: string } } };
    expect(last.type).toBe('response.failed');
    expect(last.response.error.message).toContain('scripted failure');
    const stored = await local.client.responses.retrieve(last.response.id);
    expect(stored.status).toBe('failed');
    expect(stored.error?.code).toBe('server_error');
  });

  test('a failed response carries the error type and param, as OpenAI sends them (the AI SDK requires type)', async () => {
    const failed = await local.client.responses.create({ model: 'test-scripted', input: script('w'.repeat(40), { fail_after: 2 }) });
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: 'server_error', type: 'server_error', param: null, message: expect.stringContaining('scripted failure') });
  });

  test('a client that disconnects from a foreground stream stops it; it is stored incomplete', async () => {
    const stream = await local.client.responses.create({ model: 'test-scripted', input: script('q'.repeat(300), { delay_ms: 3, chunk: 1 }), stream: true });
    let id = '';
    let n = 0;
    for await (const e of stream) {
      if (e.type === 'response.created') id = e.response.id;
      if (++n === 10) break;
    }
    const r = await waitFor(id, (s) => s !== 'in_progress');
    expect(r.status).toBe('incomplete');
    expect(r.output_text.length).toBeLessThan(300);
  });

  test('store: false persists nothing', async () => {
    const r = await local.client.responses.create({ model: 'test-scripted', input: 'secret', store: false });
    expect(r.output_text).toBe('You said: secret');
    expect(r).toMatchObject({ store: false });
    await expect(local.client.responses.retrieve(r.id)).rejects.toMatchObject({ status: 404 });
    expect(await local.store.inputItems(r.id)).toEqual([]);
  });

  test('a new runtime marks responses an earlier one left running as failed (interrupted)', async () => {
    const r = await local.client.responses.create({ model: 'test-scripted', input: script('s'.repeat(500), { delay_ms: 5, chunk: 1 }), background: true });
    await waitFor(r.id, (s) => s === 'in_progress');
    // A second runtime on the same database, as after the leader tab closed.
    const next = await localClient({ dbName: local.dbName });
    const seen = await next.client.responses.retrieve(r.id);
    expect(seen.status).toBe('failed');
    expect(seen.error?.message).toMatch(/interrupted/);
    await next.server.close();
  });

  test('metadata and sampling parameters are echoed', async () => {
    const r = await local.client.responses.create({
      model: 'test-scripted',
      input: 'x',
      metadata: { topic: 'tests' },
      temperature: 0.2,
      top_p: 0.9,
      instructions: 'Be brief.',
      max_output_tokens: 64,
    });
    expect(r.metadata).toEqual({ topic: 'tests' });
    expect(r.temperature).toBe(0.2);
    expect(r.top_p).toBe(0.9);
    expect(r.instructions).toBe('Be brief.');
    expect(r.max_output_tokens).toBe(64);
  });
});
