/**
 * A builtin tool is a plug-in: `echoTool` (test/fakes/echo-tool.ts) exists only here, and
 * registering it is one line (`extraTools`). Through the real `openai` SDK it is declared,
 * called by the scripted model, streamed, stored, replayed as input by a client that keeps
 * its own history, seen in a conversation and through compaction — with no file of the
 * runtime knowing its name.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { ResponseInputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { echoTool } from '../fakes/echo-tool';
import { RecordingEngine } from '../fakes/recording-engine';
import { closeAndCheck, failed, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient;
let engine: RecordingEngine;
let ran: string[];
afterEach(() => closeAndCheck(local));

async function setup(register = true) {
  engine = new RecordingEngine();
  ran = [];
  local = await localClient({ engine, ...(register ? { extraTools: [echoTool(ran)] } : {}) });
}

const model = 'test-scripted';
// The SDK does not type a plug-in's entry or item: they are plain JSON to it.
const echo = { type: 'echo', prefix: '>> ' } as unknown as import('openai/resources/responses/responses').Tool;
const callEcho = (text: string) => `<tool_call>${JSON.stringify({ name: 'echo', arguments: { text } })}</tool_call>`;
const lastPrompt = () => engine.requests.at(-1)!.input.prompt;
const types = (items: ReadonlyArray<{ type: string }>) => items.map((i) => i.type);

describe('a plug-in builtin tool (registered with one line)', () => {
  test('is declared, called by the model, run by the runtime and streamed with its item events', async () => {
    await setup();
    const events: ResponseStreamEvent[] = [];
    for await (const e of await local.client.responses.create({ model, input: script([callEcho('hi'), 'Done.']), tools: [echo], stream: true })) events.push(e);
    const added = events.filter((e) => e.type === 'response.output_item.added').map((e) => (e as { item: { type: string } }).item.type);
    expect(added).toEqual(['echo_call', 'message']);
    const done = events.find((e) => e.type === 'response.output_item.done' && (e as { item: { type: string } }).item.type === 'echo_call') as unknown as { item: object };
    expect(done.item).toMatchObject({ type: 'echo_call', status: 'completed', text: 'hi', output: '>> hi' });
    const completed = events.at(-1) as { type: string; response: { id: string; output: Array<{ type: string }>; tools: unknown[] } };
    expect(completed.type).toBe('response.completed');
    expect(types(completed.response.output)).toEqual(['echo_call', 'message']);
    expect(completed.response.tools).toEqual([{ type: 'echo', prefix: '>> ' }]);
    expect(ran).toEqual(['hi']);
    // The model's second round was shown the call and its output, as the tool renders them.
    expect(lastPrompt()).toContain('echoed: >> hi');

    // Stored: retrieve gives the same item.
    const stored = await local.client.responses.retrieve(completed.response.id);
    expect(stored.output[0]).toMatchObject({ type: 'echo_call', output: '>> hi' });
  });

  test('its item goes back in as input (a client keeping its own history), read as history and never run again', async () => {
    await setup();
    const first = await local.client.responses.create({ model, input: script([callEcho('once'), 'Echoed.']), tools: [echo], store: false });
    expect(types(first.output)).toEqual(['echo_call', 'message']);
    const replay = [...(first.output as unknown as ResponseInputItem[]), { role: 'user' as const, content: 'And now?' }];
    const second = await local.client.responses.create({ model, input: replay, tools: [echo], store: false });
    expect(second.output_text).toBe('You said: And now?');
    expect(ran).toEqual(['once']);
    // The model saw the replayed call exactly as it saw it when it was made.
    expect(lastPrompt()).toContain('echoed: >> once');
    // A malformed item of the plug-in is refused by its own schema, naming the item.
    const bad = await failed(local.client.responses.create({ model, input: [{ type: 'echo_call', id: 'x', status: 'completed', text: 1 } as unknown as ResponseInputItem] }));
    expect(bad.status).toBe(400);
    expect(bad.param).toMatch(/^input\[0\]/);
  });

  test('is seen in a conversation and through compaction', async () => {
    await setup();
    const conversation = await local.client.conversations.create({});
    await local.client.responses.create({ model, input: script([callEcho('kept'), 'Kept.']), tools: [echo], conversation: conversation.id });
    const items = await local.client.conversations.items.list(conversation.id, { order: 'asc' });
    expect(types(items.data)).toEqual(['message', 'echo_call', 'message']);
    await local.client.responses.create({ model, input: 'What did you echo?', tools: [echo], conversation: conversation.id });
    expect(lastPrompt()).toContain('echoed: >> kept');

    const chained = await local.client.responses.create({ model, input: script([callEcho('summed'), 'Summed.']), tools: [echo] });
    await local.client.responses.compact({ model, previous_response_id: chained.id });
    // The compaction's summary was written by the model shown the call as the tool renders it.
    expect(lastPrompt()).toContain('echoed: >> summed');
    expect(ran).toEqual(['kept', 'summed']);
  });

  test('without the plug-in registered, its entry is a 400 naming it', async () => {
    await setup(false);
    const err = await failed(local.client.responses.create({ model, input: 'hi', tools: [echo] }));
    expect(err.status).toBe(400);
    expect(err.param).toBe('tools[0].type');
  });
});
