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
