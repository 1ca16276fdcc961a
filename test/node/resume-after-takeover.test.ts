/**
 * Issue 27: a client that resumes a stream (`retrieve(id, {stream: true, starting_after})`)
 * always learns how its response ended — after a takeover too, from any sequence number it
 * can have seen, including numbers the dead runtime never logged — and no number it saw is
 * reused for another event.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { ResponseStore } from '../../src/ports/response-store';
import { TERMINAL_EVENT_TYPES, UNLOGGED_EVENTS_MAX, type StreamEvent } from '../../src/protocol/stream-events';
import { withOverrides } from '../fakes/store-overrides';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

const open: LocalClient[] = [];
afterEach(async () => {
  for (const local of open.splice(0)) await closeAndCheck(local);
});

/** A store whose event-log writes wait while the gate is shut (a slow or stalled IndexedDB). */
function gatedStore(inner: ResponseStore) {
  let release: () => void = () => {};
  let gate: Promise<void> | null = null;
  const written: number[] = [];
  const store = withOverrides(inner, {
    appendEvents: async (id, events) => {
      if (gate) await gate;
      await inner.appendEvents(id, events);
      written.push(...events.map((e) => e.sequence_number));
    },
  });
  return {
    store,
    written,
    shut() {
      gate ??= new Promise((resolve) => (release = () => resolve()));
    },
    open() {
      gate = null;
      release();
    },
  };
}

/** Reads `stream` until it ends or no event came for `quietMs`. */
async function readUntilQuiet(iterator: AsyncIterator<ResponseStreamEvent>, quietMs: number, seen: ResponseStreamEvent[]): Promise<'ended' | 'quiet'> {
  for (;;) {
    const next = iterator.next();
    const result = await Promise.race([next, new Promise<'quiet'>((resolve) => setTimeout(() => resolve('quiet'), quietMs))]);
    if (result === 'quiet') {
      // Keep the pending read for the next call.
      pendingReads.set(iterator, next);
      return 'quiet';
    }
    if (result.done) return 'ended';
    seen.push(result.value);
  }
}
const pendingReads = new Map<AsyncIterator<ResponseStreamEvent>, Promise<IteratorResult<ResponseStreamEvent>>>();

async function drain(iterator: AsyncIterator<ResponseStreamEvent>, seen: ResponseStreamEvent[]): Promise<void> {
  const pending = pendingReads.get(iterator);
  pendingReads.delete(iterator);
  if (pending) {
    const first = await pending;
    if (first.done) return;
    seen.push(first.value);
  }
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) seen.push(next.value);
}

async function resume(local: LocalClient, id: string, after: number): Promise<ResponseStreamEvent[]> {
  const events: ResponseStreamEvent[] = [];
  // The SDK's own loop: it ends by itself once the server ends the stream ([DONE]).
  for await (const event of await local.client.responses.retrieve(id, { stream: true, starting_after: after })) events.push(event);
  return events;
}

function increasing(events: ResponseStreamEvent[]): boolean {
  return events.every((e, i) => i === 0 || e.sequence_number > events[i - 1]!.sequence_number);
}

describe('a stream never runs further ahead of its stored log than a takeover can recover', () => {
  test(`with the log's writes stalled, a reader sees at most ${UNLOGGED_EVENTS_MAX} events; it goes on once they land`, async () => {
    let gated!: ReturnType<typeof gatedStore>;
    const local = await localClient({ wrapStore: (inner) => (gated = gatedStore(inner)).store });
    open.push(local);
    gated.shut();
    const words = 'x'.repeat(1200);
    const stream = await local.client.responses.create({ model: 'test-scripted', input: script(words, { chunk: 1 }), stream: true, background: true });
    const iterator = stream[Symbol.asyncIterator]();
    const seen: ResponseStreamEvent[] = [];
    expect(await readUntilQuiet(iterator, 200, seen)).toBe('quiet');
    // Nothing logged yet: sequence numbers 0 … UNLOGGED_EVENTS_MAX - 1 at most.
    expect(seen.length).toBe(UNLOGGED_EVENTS_MAX);
    expect(Math.max(...seen.map((e) => e.sequence_number))).toBe(UNLOGGED_EVENTS_MAX - 1);
    gated.open();
    await drain(iterator, seen);
    expect(seen.at(-1)?.type).toBe('response.completed');
    expect(seen.filter((e) => e.type === 'response.output_text.delta').map((e) => (e.type === 'response.output_text.delta' ? e.delta : '')).join('')).toBe(words);
    expect(increasing(seen)).toBe(true);
  });
});

describe('resuming after a takeover', () => {
  /**
   * A background streamed response whose runtime dies after the client saw `seenEvents`
   * events, while the last `unlogged` of them never reached storage (the log's writes were
   * stalled from then on). The next runtime recovers it.
   */
  async function cutOff(seenEvents: number, unlogged: number) {
    let gated!: ReturnType<typeof gatedStore>;
    const first = await localClient({ wrapStore: (inner) => (gated = gatedStore(inner)).store });
    const words = Array.from({ length: 400 }, (_, i) => `w${i} `).join('');
    const stream = await first.client.responses.create({ model: 'test-scripted', input: script(words, { delay_ms: 2, chunk: 3 }), background: true, stream: true });
    const seen: ResponseStreamEvent[] = [];
    let id = '';
    for await (const event of stream) {
      seen.push(event);
      if (event.type === 'response.created') id = event.response.id;
      if (seen.length === seenEvents - unlogged) {
        // Let what was sent so far be logged, then stall the log.
        await new Promise((resolve) => setTimeout(resolve, 40));
        gated.shut();
      }
      if (seen.length >= seenEvents) break;
    }
    // The tab "dies": its database connection goes, so nothing more it does reaches storage
    // (the stalled writes then fail too, and its run unwinds without a trace).
    first.store.close();
    gated.open();
    void first.server.close();
    const next = await localClient({ dbName: first.dbName });
    open.push(next);
    return { next, id, seen, logged: Math.max(...gated.written), words };
  }

  test.each([
    ['early', 8, 0],
    ['mid, everything seen was logged', 120, 0],
    ['mid, the last events seen never logged', 120, 60],
    ['with as many unlogged events as the stream allows', 300, UNLOGGED_EVENTS_MAX - 1],
  ])('cut off %s: every number the client could have seen resumes to the terminal event', async (_name, seenEvents, unlogged) => {
    const { next, id, seen, logged, words } = await cutOff(seenEvents, unlogged);
    const lastSeen = seen.at(-1)!.sequence_number;
    // What the client saw may be ahead of the log (unlogged > 0) or behind it.
    if (unlogged > 0) expect(lastSeen).toBeGreaterThan(logged);
    const recovered = await next.client.responses.retrieve(id);
    expect(recovered.status).toBe('failed');

    const afters = new Set([-1, 0, logged, lastSeen, logged + 1, logged + UNLOGGED_EVENTS_MAX]);
    for (const after of afters) {
      const resumed = await resume(next, id, after);
      expect(resumed.at(-1)?.type, `after ${after}`).toBe('response.failed');
      expect(resumed.filter((e) => TERMINAL_EVENT_TYPES.has(e.type as StreamEvent['type']))).toHaveLength(1);
      expect(resumed[0]!.sequence_number).toBeGreaterThan(after);
      expect(increasing(resumed)).toBe(true);
      // The terminal event's number was never one the client saw for another event.
      expect(resumed.at(-1)!.sequence_number).toBeGreaterThan(Math.max(lastSeen, logged));
    }
    // The stored output is a prefix of what the run streamed: of what this client read when
    // the last events it read were never logged, else it may go on past what this client read.
    const sent = seen.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('');
    const kept = recovered.output_text;
    expect(words.startsWith(kept)).toBe(true);
    if (unlogged > 0) expect(sent.startsWith(kept) && kept.length < sent.length).toBe(true);
    else expect(kept.startsWith(sent) || sent.startsWith(kept)).toBe(true);
  });
});

describe('every finished response resumes to its terminal event', () => {
  test('a cancelled stream ends with response.incomplete whose response is cancelled, live and replayed', async () => {
    const local = await localClient();
    open.push(local);
    const stream = await local.client.responses.create({ model: 'test-scripted', input: script('y'.repeat(2000), { delay_ms: 5 }), stream: true, background: true });
    const seen: ResponseStreamEvent[] = [];
    for await (const event of stream) {
      seen.push(event);
      if (seen.length === 5) await local.client.responses.cancel(event.type === 'response.created' ? event.response.id : seen[0]!.type === 'response.created' ? seen[0]!.response.id : '');
    }
    const last = seen.at(-1)!;
    expect(last.type).toBe('response.incomplete');
    expect(last.type === 'response.incomplete' && last.response.status).toBe('cancelled');
    const id = seen[0]!.type === 'response.created' ? seen[0]!.response.id : '';
    const replayed = await resume(local, id, -1);
    expect(replayed.at(-1)).toMatchObject({ type: 'response.incomplete', sequence_number: last.sequence_number, response: { status: 'cancelled' } });
    expect(await resume(local, id, last.sequence_number - 1)).toHaveLength(1);
  });

  test('a log without its terminal event (an older runtime) and a resume past the logged terminal still end with it', async () => {
    // A store that drops terminal events from what it saves: what an older runtime left.
    const local = await localClient({
      wrapStore: (inner) => withOverrides(inner, { save: (response, events, append) => inner.save(response, events.filter((e) => !TERMINAL_EVENT_TYPES.has(e.type)), append) }),
    });
    open.push(local);
    const created = await local.client.responses.create({ model: 'test-scripted', input: script('done soon'), background: true, stream: true });
    let id = '';
    let lastLive = -1;
    for await (const event of created) {
      if (event.type === 'response.created') id = event.response.id;
      lastLive = event.sequence_number;
    }
    for (const after of [-1, lastLive - 1, lastLive, lastLive + 10]) {
      const resumed = await resume(local, id, after);
      expect(resumed.at(-1)?.type, `after ${after}`).toBe('response.completed');
      expect(resumed.at(-1)!.sequence_number).toBeGreaterThan(after);
      expect(increasing(resumed)).toBe(true);
    }
  });
});
