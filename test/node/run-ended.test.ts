/**
 * The server tells each response's end (`onRunEnded`): the runtime fetches what it deferred
 * until a first answer on it. Completed, incomplete, failed, cancelled and unstored
 * responses, through the SDK.
 */
import { expect, test } from 'vitest';
import type { ResponseObject } from '../../src/protocol/response-object';
import { localClient } from '../support/local-client';

const script = (output: string, extra: object = {}) => JSON.stringify({ script: output, ...extra });

test('each response’s end is told once, stored or not, with its final status', async () => {
  const ended: Pick<ResponseObject, 'id' | 'status'>[] = [];
  const local = await localClient({ server: { onRunEnded: (r) => ended.push({ id: r.id, status: r.status }) } });
  const until = async (n: number) => expect.poll(() => ended.length).toBe(n);

  const done = await local.client.responses.create({ model: 'test-scripted', input: 'hi' });
  await until(1);
  const cut = await local.client.responses.create({ model: 'test-scripted', input: script('z'.repeat(200)), max_output_tokens: 16 });
  await until(2);
  const failed = await local.client.responses.create({ model: 'test-scripted', input: script('x'.repeat(40), { fail_after: 2 }) });
  await until(3);
  const unstored = await local.client.responses.create({ model: 'test-scripted', input: 'not kept', store: false, stream: true });
  for await (const _ of unstored);
  await until(4);
  const slow = await local.client.responses.create({ model: 'test-scripted', input: script('y'.repeat(200), { delay_ms: 20 }), background: true });
  await local.client.responses.cancel(slow.id);
  await until(5);

  expect(ended.slice(0, 3)).toEqual([
    { id: done.id, status: 'completed' },
    { id: cut.id, status: 'incomplete' },
    { id: failed.id, status: 'failed' },
  ]);
  expect(ended[3]).toMatchObject({ status: 'completed' });
  expect(ended[4]).toEqual({ id: slow.id, status: 'cancelled' });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(ended).toHaveLength(5);
});
