import { describe, expect, test } from 'vitest';
import type { ResponseObject } from '../../protocol/response-object';
import type { SteerEvent } from '../../protocol/steer-frames';
import { readSteerFrame } from '../../protocol/steer-frames';
import { Steering } from './steering';

const response = (patch: Partial<ResponseObject>) => ({ id: 'resp_1', status: 'completed', output: [], incomplete_details: null, ...patch }) as ResponseObject;

function setup() {
  const sent: SteerEvent[] = [];
  const steering = new Steering((e) => sent.push(e));
  let steered = 0;
  steering.running('resp_1', { lane: 'a', body: { model: 'm', input: 'first', instructions: 'Be brief.' }, run: { steer: () => steered++ }, unsupported: null });
  steering.saw('resp_1', 7);
  const steer = (input: unknown) => steering.submit(readSteerFrame({ type: 'response.steer', previous_response_id: 'resp_1', input }));
  return { sent, steering, steer, steered: () => steered };
}

describe('Steering', () => {
  test('accepted input steers the run; a steered end gives the successor: the target’s settings, chained, the input in order, on its lane', () => {
    const { sent, steering, steer, steered } = setup();
    steer('one');
    steer([{ role: 'user', content: 'two' }]);
    expect(steered()).toBe(2);
    expect(sent.map((e) => [e.type, e.sequence_number, e.stream_id])).toEqual([
      ['response.steer.accepted', 7, 'a'],
      ['response.steer.accepted', 7, 'a'],
    ]);
    const next = steering.finished('resp_1', response({ status: 'incomplete', incomplete_details: { reason: 'steered' } }));
    expect(next?.automatic).toBe(true);
    expect(next?.frame).toEqual({
      body: { model: 'm', instructions: 'Be brief.', previous_response_id: 'resp_1', input: [{ type: 'message', role: 'user', content: 'one' }, { type: 'message', role: 'user', content: 'two' }] },
      generate: true,
      streamId: 'a',
    });
  });

  test('a response that ends failed or cancelled returns the input: response_not_active', () => {
    const { sent, steering, steer } = setup();
    steer('one');
    expect(steering.finished('resp_1', response({ status: 'cancelled' }))).toBeNull();
    expect(sent.at(-1)).toMatchObject({ type: 'response.steer.failed', error: { code: 'response_not_active' }, steer: { input: 'one', previous_response_id: 'resp_1', id: expect.any(String) } });
  });

  test('a successor that cannot be created returns the input: successor_creation_failed', () => {
    const { sent, steering, steer } = setup();
    steer('one');
    const next = steering.finished('resp_1', response({ status: 'completed' }))!;
    steering.notCommitted(next, 'Your input exceeds the context window.');
    expect(sent.at(-1)).toMatchObject({
      type: 'response.steer.failed',
      error: { code: 'successor_creation_failed', message: expect.stringContaining('context window') },
      steer: { input: 'one', previous_response_id: 'resp_1' },
      stream_id: 'a',
    });
  });

  test('waiting for an approval: pending with its stub; only a create on the same lane takes the queued input', () => {
    const { sent, steering, steer } = setup();
    steer('one');
    const output = [{ type: 'mcp_approval_request', id: 'mcpr_1', server_label: 's', name: 'n', arguments: '{}' }] as unknown as ResponseObject['output'];
    expect(steering.finished('resp_1', response({ output }))).toBeNull();
    expect(sent.at(-1)).toMatchObject({ type: 'response.steer.pending', required_input: [{ type: 'mcp_approval_response', approval_request_id: 'mcpr_1' }] });
    const elsewhere = steering.continuing({ body: { previous_response_id: 'resp_1', input: 'x' }, generate: true, streamId: null });
    expect(elsewhere.steers).toEqual([]);
    const here = steering.continuing({ body: { previous_response_id: 'resp_1', input: 'x' }, generate: true, streamId: 'a' });
    expect(here.frame.body.input).toEqual([{ type: 'message', role: 'user', content: 'one' }, { role: 'user', content: 'x' }]);
  });
});
