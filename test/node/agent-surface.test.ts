/**
 * The rest of the 2026 surface (issue 33, item 7), through the real `openai` SDK:
 * `include: ["web_search_call.action.sources", "web_search_call.results"]` on create and on
 * item reads, `background_options`, and why `image_generation` / `image` are refused.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { WebSearchPort } from '../../src/ports/tool-ports';
import { RecordingEngine } from '../fakes/recording-engine';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

let local: LocalClient;
afterEach(() => closeAndCheck(local));

const model = 'test-scripted';
const url = 'http://127.0.0.1:9/wiki/Paris';
const fakeWeb: WebSearchPort = {
  search: async () => [{ url, title: 'Paris', snippet: 'Capital of France' }],
  openPage: async () => ({ url, title: 'Paris', text: 'Paris.' }),
  findInPage: async () => ({ url, matches: [] }),
};
const call = (name: string, args: object) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
const searched = () => script([call('search', { query: 'capital of France' }), 'Paris.']);
const sourcesOf = (output: Array<{ type: string }>) => output.flatMap((o) => (o.type === 'web_search_call' ? [(o as unknown as { action: { sources?: unknown } }).action.sources] : []));

describe('include: web_search_call.action.sources / .results', () => {
  test('sources are stored, shown only when included: create, retrieve, input items, replay', async () => {
    local = await localClient({ tools: { webSearch: fakeWeb } });
    const hidden = await local.client.responses.create({ model, input: searched(), tools: [{ type: 'web_search' }] });
    expect(sourcesOf(hidden.output)).toEqual([undefined]);
    expect(hidden.output[0]).toMatchObject({ type: 'web_search_call', action: { type: 'search', query: 'capital of France' } });

    const shown = await local.client.responses.create({ model, input: searched(), tools: [{ type: 'web_search' }], include: ['web_search_call.action.sources', 'web_search_call.results'] });
    expect(sourcesOf(shown.output)).toEqual([[{ type: 'url', url }]]);

    // Kept in storage either way: a read that includes them shows them.
    const retrieved = await local.client.responses.retrieve(hidden.id, { include: ['web_search_call.action.sources'] });
    expect(sourcesOf(retrieved.output)).toEqual([[{ type: 'url', url }]]);
    expect(sourcesOf((await local.client.responses.retrieve(hidden.id)).output)).toEqual([undefined]);

    // Replayed as input (a client keeping its own history), then listed with and without.
    const replay = await local.client.responses.create({ model, input: [...(shown.output as never[]), { role: 'user', content: script(['ok']) }] });
    const withSources = await local.client.responses.inputItems.list(replay.id, { include: ['web_search_call.action.sources'] });
    expect(sourcesOf(withSources.data)).toEqual([[{ type: 'url', url }]]);
    expect(sourcesOf((await local.client.responses.inputItems.list(replay.id)).data)).toEqual([undefined]);
  });

  test('streamed: the item events show sources only when included; a conversation lists them with include', async () => {
    local = await localClient({ tools: { webSearch: fakeWeb } });
    const conversation = await local.client.conversations.create({});
    const events: ResponseStreamEvent[] = [];
    for await (const e of await local.client.responses.create({ model, input: searched(), tools: [{ type: 'web_search' }], conversation: conversation.id, stream: true })) events.push(e);
    const doneItems = events.flatMap((e) => (e.type === 'response.output_item.done' ? [e.item] : []));
    expect(sourcesOf(doneItems)).toEqual([undefined]);
    const included: ResponseStreamEvent[] = [];
    for await (const e of await local.client.responses.create({ model, input: searched(), tools: [{ type: 'web_search' }], include: ['web_search_call.action.sources'], stream: true })) included.push(e);
    expect(sourcesOf(included.flatMap((e) => (e.type === 'response.output_item.done' ? [e.item] : [])))).toEqual([[{ type: 'url', url }]]);

    const items = await local.client.conversations.items.list(conversation.id, { include: ['web_search_call.action.sources'] });
    expect(sourcesOf(items.data)).toEqual([[{ type: 'url', url }]]);
    expect(sourcesOf((await local.client.conversations.items.list(conversation.id, { include: ['web_search_call.results'] })).data)).toEqual([undefined]);
  });
});

describe('background_options', () => {
  test('accepted: soonest, and the deferred windows run at once in the background', async () => {
    local = await localClient();
    const soon = await local.client.responses.create({ model, input: script(['Hi.']), background_options: { completion_window: 'soonest', continuation_id: 'batch-7' } });
    expect(soon).toMatchObject({ status: 'completed', output_text: 'Hi.' });
    const later = await local.client.responses.create({ model, input: script(['Later.']), background: true, background_options: { completion_window: '8h' } });
    let done = later;
    // Poll with a pause: the run goes on in timers, which a tight loop of reads would starve.
    for (let i = 0; i < 200 && (done.status === 'queued' || done.status === 'in_progress'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      done = await local.client.responses.retrieve(later.id);
    }
    expect(done).toMatchObject({ status: 'completed', output_text: 'Later.' });
  });

  test('2h/8h need background without stream; unknown options are a 400 naming them', async () => {
    local = await localClient();
    await expect(local.client.responses.create({ model, input: 'x', background_options: { completion_window: '2h' } })).rejects.toMatchObject({ status: 400, param: 'background_options.completion_window' });
    await expect(local.client.responses.create({ model, input: 'x', background: true, stream: true, background_options: { completion_window: '8h' } })).rejects.toMatchObject({
      status: 400,
      param: 'background_options.completion_window',
    });
    await expect(local.client.responses.create({ model, input: 'x', background_options: { priority: 1 } as never })).rejects.toMatchObject({ status: 400, param: 'background_options.priority' });
  });
});

describe('image generation', () => {
  test('the image_generation tool and request-level image options are 400s that say why', async () => {
    local = await localClient();
    const tool = await local.client.responses.create({ model, input: 'x', tools: [{ type: 'image_generation' }] }).then(() => ({ status: 200, param: '', message: '' }), (e: unknown) => e as { status: number; param: string; message: string });
    expect(tool).toMatchObject({ status: 400, param: 'tools[0].type' });
    expect(tool.message).toMatch(/none of its models generates images.*provider whose upstream generates them/);
    const image = await local.client.responses.create({ model, input: 'x', image: { context_compression: 'enabled' } }).then(() => ({ status: 200, param: '', message: '' }), (e: unknown) => e as { status: number; param: string; message: string });
    expect(image).toMatchObject({ status: 400, param: 'image' });
    expect(image.message).toMatch(/context_compression/);
  });

  test('an image_generation_call replayed as history is accepted, stored, listed and shown to the model as a note', async () => {
    const engine = new RecordingEngine();
    local = await localClient({ engine });
    const call = { type: 'image_generation_call' as const, id: 'ig_abc', status: 'completed' as const, result: 'iVBORw0KGgo=', revised_prompt: 'a red fox in snow', output_format: 'png' as const };
    const r = await local.client.responses.create({ model, input: [{ role: 'user', content: 'Draw a fox.' }, call, { role: 'user', content: 'What did you draw?' }] });
    expect(r.status).toBe('completed');
    const listed = await local.client.responses.inputItems.list(r.id, { order: 'asc' });
    expect(listed.data.map((i) => i.type)).toEqual(['message', 'image_generation_call', 'message']);
    expect(listed.data[1]).toMatchObject(call);
    expect(engine.requests.at(-1)!.input.prompt).toContain('[An image was generated: a red fox in snow]');
    await expect(local.client.responses.create({ model, input: [{ ...call, status: 'painted' as never }] })).rejects.toMatchObject({ status: 400 });
  });
});
