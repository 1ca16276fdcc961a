/**
 * The computer tool, run by the client (issue 33, item 6), through the real `openai` SDK:
 * `computer` and `computer_use_preview` are one function of `action` to the model; its call is
 * a `computer_call` that ends the response; a `computer_call_output` (a screenshot) goes back
 * in and is shown to a model that sees, with the image — a 400 for one that does not.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';
import { RecordingEngine } from '../fakes/recording-engine';

let local: LocalClient;
afterEach(() => closeAndCheck(local));

const vision = 'test-scripted-vision';
const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const click = { type: 'click', button: 'left', x: 10, y: 20 };
const computer = (action: object) => `<tool_call>${JSON.stringify({ name: 'computer', arguments: { action } })}</tool_call>`;
const preview = { type: 'computer_use_preview' as const, display_width: 1024, display_height: 768, environment: 'browser' as const };

describe('computer tool', () => {
  test('a call is a computer_call for the client; its screenshot reaches the model that sees; stored and listed', async () => {
    const engine = new RecordingEngine();
    local = await localClient({ engine });
    const first = await local.client.responses.create({ model: vision, input: script([computer(click), 'Clicked.']), tools: [preview] });
    expect(first.status).toBe('completed');
    expect(first.output).toEqual([{ type: 'computer_call', id: expect.any(String), call_id: expect.any(String), action: click, pending_safety_checks: [], status: 'completed' }]);
    expect(engine.requests.at(-1)!.input.prompt).toContain('1024×768 pixels (browser)');
    const call = first.output[0] as { call_id: string };
    const next = await local.client.responses.create({
      model: vision,
      previous_response_id: first.id,
      tools: [preview],
      input: [{ type: 'computer_call_output', call_id: call.call_id, output: { type: 'computer_screenshot', image_url: png }, acknowledged_safety_checks: [] }],
    });
    expect(next.output_text).toBe('Clicked.');
    const turn = engine.requests.at(-1)!.input.messages.at(-1)!;
    expect(turn.content).toContain('The screenshot after the action.');
    expect(turn.images).toEqual([png]);
    expect(engine.requests.at(-1)!.input.prompt).toContain('{"name": "computer", "arguments": {"action": {"type": "click", "button": "left", "x": 10, "y": 20}}}');
    const listed = await local.client.responses.inputItems.list(next.id);
    expect(listed.data[0]).toMatchObject({ type: 'computer_call_output', call_id: call.call_id, output: { type: 'computer_screenshot', image_url: png } });
  });

  test('streamed (GA computer): output_item events; replayed by a client keeping its own history', async () => {
    local = await localClient();
    const events: ResponseStreamEvent[] = [];
    const asked = script([computer({ type: 'screenshot' }), 'Seen.']);
    for await (const e of await local.client.responses.create({ model: vision, input: asked, tools: [{ type: 'computer' }], stream: true, store: false })) events.push(e);
    const item = events.flatMap((e) => (e.type === 'response.output_item.done' ? [e.item] : []));
    expect(item).toMatchObject([{ type: 'computer_call', action: { type: 'screenshot' }, pending_safety_checks: [] }]);
    expect(events.find((e) => e.type === 'response.output_item.added')).toMatchObject({ item: { type: 'computer_call', status: 'in_progress' } });
    const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
    const callId = (done.response.output[0] as { call_id: string }).call_id;
    const replay = await local.client.responses.create({
      model: vision,
      tools: [{ type: 'computer' }],
      input: [{ role: 'user', content: asked }, ...(done.response.output as never[]), { type: 'computer_call_output', call_id: callId, output: { type: 'computer_screenshot', image_url: png } }],
    });
    expect(replay.output_text).toBe('Seen.');
  });

  test('an action outside the SDK union stays text; a blind model is a 400 for a screenshot', async () => {
    local = await localClient();
    const odd = await local.client.responses.create({ model: vision, input: script([computer({ type: 'teleport', x: 1 })]), tools: [{ type: 'computer' }] });
    expect(odd.output.map((o) => o.type)).toEqual(['message']);
    const first = await local.client.responses.create({ model: 'test-scripted', input: script([computer({ type: 'wait' })]), tools: [{ type: 'computer' }] });
    expect(first.output[0]).toMatchObject({ type: 'computer_call', action: { type: 'wait' } });
    const refused = await local.client.responses
      .create({
        model: 'test-scripted',
        previous_response_id: first.id,
        tools: [{ type: 'computer' }],
        input: [{ type: 'computer_call_output', call_id: (first.output[0] as { call_id: string }).call_id, output: { type: 'computer_screenshot', image_url: png } }],
      })
      .then(
        () => ({ status: 200, param: '', message: '' }),
        (e: unknown) => e as { status: number; param: string; message: string },
      );
    expect(refused).toMatchObject({ status: 400, param: 'input[0].output' });
    expect(refused.message).toMatch(/cannot see images/);
  });
});
