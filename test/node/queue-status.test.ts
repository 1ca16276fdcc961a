/** Issue 12 finding 4: under many concurrent streams, waiting ⇒ queued + response.queued; running ⇒ in_progress. */
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient;
beforeEach(async () => {
  local = await localClient();
});
afterEach(() => closeAndCheck(local));

test('50 concurrent streams: only the first starts in_progress; every other one is queued first, and they run one at a time', async () => {
  const streams = await Promise.all(
    Array.from({ length: 50 }, (_, i) => local.client.responses.create({ model: 'test-scripted', input: script(`r${i}`, { delay_ms: 1 }), stream: true })),
  );
  const timeline: Array<[number, 'start' | 'end']> = [];
  const all = await Promise.all(
    streams.map(async (stream, i) => {
      const events: ResponseStreamEvent[] = [];
      for await (const event of stream) {
        events.push(event);
        if (event.type === 'response.in_progress') timeline.push([i, 'start']);
        if (event.type === 'response.completed') timeline.push([i, 'end']);
      }
      return events;
    }),
  );
  const startedRunning = all.filter((events) => events[0]?.type === 'response.created' && events[0].response.status === 'in_progress');
  expect(startedRunning).toHaveLength(1);
  for (const events of all) {
    const types = events.map((e) => e.type);
    const created = events[0] as Extract<ResponseStreamEvent, { type: 'response.created' }>;
    if (created.response.status === 'queued') expect(types.slice(0, 3)).toEqual(['response.created', 'response.queued', 'response.in_progress']);
    else expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
    expect(types.at(-1)).toBe('response.completed');
  }
  // One at a time: every start is followed by its own end before the next start.
  for (let k = 0; k < timeline.length; k += 2) {
    expect(timeline[k]![1]).toBe('start');
    expect(timeline[k + 1]).toEqual([timeline[k]![0], 'end']);
  }
});
