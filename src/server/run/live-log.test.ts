import { getEventListeners } from 'node:events';
import { expect, test } from 'vitest';
import type { UnsequencedEvent } from '../../protocol/stream-events';
import { LiveLog } from './live-log';

const delta = (text: string) => ({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: text, logprobs: [] }) as unknown as UnsequencedEvent;

test('a reader that follows a long stream leaves no listeners on its signal, and still stops when it aborts', async () => {
  const log = new LiveLog();
  const controller = new AbortController();
  const seen: number[] = [];
  const reading = (async () => {
    for await (const event of log.follow(-1, controller.signal)) seen.push(event.sequence_number);
  })();
  for (let i = 0; i < 200; i++) {
    log.append(delta(String(i)));
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  expect(seen).toHaveLength(200);
  // Waiting for event 200: its one listener, none left from the 200 waits before.
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
  controller.abort();
  await reading;
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
});

test('held readers see at most `ahead` events past what the store took, everything once the log closes', async () => {
  const log = new LiveLog();
  log.holdReadersTo(3);
  const seen: number[] = [];
  const reading = (async () => {
    for await (const event of log.follow(-1)) seen.push(event.sequence_number);
  })();
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  for (let i = 0; i < 10; i++) log.append(delta(String(i)));
  await settle();
  expect(seen).toEqual([0, 1, 2]); // nothing stored yet: sequence numbers 0..ahead-1
  log.stored(4);
  await settle();
  expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  log.stored(2); // a late report of an earlier write takes nothing back
  log.close();
  await reading;
  expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test('a reader that starts late is held to the same bound', async () => {
  const log = new LiveLog();
  log.holdReadersTo(2);
  for (let i = 0; i < 6; i++) log.append(delta(String(i)));
  log.stored(1);
  const controller = new AbortController();
  const seen: number[] = [];
  const reading = (async () => {
    for await (const event of log.follow(0, controller.signal)) seen.push(event.sequence_number);
  })();
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(seen).toEqual([1, 2, 3]);
  controller.abort();
  await reading;
});
