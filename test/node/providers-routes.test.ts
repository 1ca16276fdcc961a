/**
 * Routes: one model name over the device's model (`test-scripted`: text only, 32k window) and
 * a provider's (`lab/tiny` on a fake upstream over real HTTP). The API (made, listed, refused
 * with the field named and nothing stored), and the decision of each request: where it runs,
 * what `response.model` says from `response.created` on, and a chain crossing sides.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { providerConnector } from '../../src/engine/remote';
import type { ModelManager } from '../../src/ports/model-manager';
import type { ModelInfo } from '../../src/ports/engine';
import { ScriptedEngine } from '../../src/engine/scripted-engine';
import type { RouteOptions } from '../../src/protocol/runtime-options';
import { openIdbRouteStore } from '../../src/store/idb-route-store';
import type { RouteStore } from '../../src/ports/routes';
import { piecesOf, startFakeUpstream, type FakeUpstream } from '../fakes/fake-upstream';
import { closeAndCheck, failed, localClient, script, type LocalClient } from '../support/local-client';
import { addProvider, APP_ORIGIN } from '../support/provider-client';
import { openTestSocket } from '../support/socket-client';

let upstream: FakeUpstream;
let local: LocalClient;
beforeEach(async () => {
  upstream = await startFakeUpstream();
  upstream.reply = () => ({ kind: 'chat', pieces: piecesOf('From the server.') });
});
afterEach(async () => {
  await closeAndCheck(local);
  await upstream.close().catch(() => undefined);
});

const IMAGE = 'data:image/png;base64,iVBORw0KGgo=';
const posts = () => upstream.requests.filter((r) => r.method === 'POST');

interface Setup {
  routes?: RouteOptions[];
  modelManager?: ModelManager;
  routeStore?: RouteStore;
  dbName?: string;
  engine?: ScriptedEngine;
}

/** The scripted model, as a model without tool calling. */
class NoToolsEngine extends ScriptedEngine {
  override models(): ModelInfo[] {
    return super.models().map((m) => ({ ...m, capabilities: { tools: false, reasoning: false } }));
  }
}

async function setup(options: Setup = {}) {
  local = await localClient({
    ...(options.dbName ? { dbName: options.dbName } : {}),
    ...(options.engine ? { engine: options.engine } : {}),
    server: {
      providers: {
        connect: providerConnector({ appOrigin: APP_ORIGIN, idleTimeoutMs: 2000 }),
        appOrigin: APP_ORIGIN,
        // Every decision asks the provider: a test closes it between two requests.
        reachFreshMs: 0,
        initial: [{ id: 'lab', baseUrl: upstream.baseUrl }],
      },
      routes: { ...(options.routes ? { initial: options.routes } : {}), ...(options.routeStore ? { store: options.routeStore } : {}) },
      ...(options.modelManager ? { modelManager: options.modelManager } : {}),
    },
  });
}

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await local.http(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const addRoute = (body: Record<string, unknown>) => post('/v1/local/routes', body);

/** A model manager whose `test-scripted` is not downloaded (and which records any load). */
function notDownloaded(): ModelManager & { load: ReturnType<typeof vi.fn> } {
  return {
    status: async () => ({ gpu: { usable: false, reason: 'none', shaderF16: false }, cpu: { usable: true, reason: null }, isolation: { crossOriginIsolated: false, reason: 'test' }, storage: null, loaded: null, loading: null, models: [{ id: 'test-scripted', cached: false, loaded: false }] }),
    load: vi.fn(async () => undefined),
    deleteCached: async () => undefined,
    onDevice: async () => false,
  };
}

async function streamed(body: Record<string, unknown>): Promise<ResponseStreamEvent[]> {
  const stream = await local.client.responses.create({ ...body, stream: true } as never);
  const events: ResponseStreamEvent[] = [];
  for await (const e of stream as unknown as AsyncIterable<ResponseStreamEvent>) events.push(e);
  return events;
}

describe('/v1/local/routes', () => {
  test('create, list, read, replace and delete; /v1/models lists a route as a chat model', async () => {
    await setup();
    const made = await addRoute({ id: 'auto', local: 'test-scripted', remote: 'lab/tiny' });
    expect(made).toEqual({ status: 200, body: { object: 'local.route', id: 'auto', local: 'test-scripted', remote: 'lab/tiny', prefer: 'local', source: 'settings', created_at: expect.any(Number) } });
    expect((await addRoute({ id: 'auto', local: 'test-scripted', remote: 'lab/tiny', prefer: 'remote' })).body.prefer).toBe('remote');
    const list = (await (await local.http('/v1/local/routes')).json()) as { data: Array<{ id: string }> };
    expect(list.data.map((r) => r.id)).toEqual(['auto']);
    expect(((await (await local.http('/v1/local/routes/auto')).json()) as { prefer: string }).prefer).toBe('remote');
    const models = await local.client.models.list();
    expect(models.data.find((m) => m.id === 'auto')).toMatchObject({ engine: 'route', type: 'chat', label: 'Auto — lab, then this device', route: { local: 'test-scripted', remote: 'lab/tiny', prefer: 'remote' } });
    expect(await local.client.models.retrieve('auto')).toMatchObject({ id: 'auto', engine: 'route' });
    const deleted = await local.http('/v1/local/routes/auto', { method: 'DELETE' });
    expect(await deleted.json()).toEqual({ id: 'auto', object: 'local.route.deleted', deleted: true });
    expect((await local.http('/v1/local/routes/auto')).status).toBe(404);
  });

  test.each([
    [{ id: 'auto', local: 'nope', remote: 'lab/tiny' }, 'local', /not a model of this device/],
    [{ id: 'auto', local: 'lab/tiny', remote: 'lab/tiny' }, 'local', /model of provider 'lab', not of this device/],
    [{ id: 'auto', local: 'test-scripted', remote: 'other/tiny' }, 'remote', /no provider 'other'/],
    [{ id: 'auto', local: 'test-scripted', remote: 'test-scripted' }, 'remote', /not a provider's model/],
    [{ id: 'test-scripted', local: 'test-scripted', remote: 'lab/tiny' }, 'id', /already a model's id/],
    [{ id: 'a/b', local: 'test-scripted', remote: 'lab/tiny' }, 'id', /./],
    [{ id: 'auto', local: 'test-scripted', remote: 'lab/tiny', prefer: 'fast' }, 'prefer', /./],
    [{ id: 'auto', local: 'test-scripted', remote: 'lab/tiny', extra: 1 }, null, /./],
  ])('a bad route %j is a 400 naming %s, and nothing is stored', async (body, param, message) => {
    const dbName = `routes-bad-${Date.now()}-${Math.random()}`;
    const store = await openIdbRouteStore({ name: dbName });
    await setup({ routeStore: store, dbName });
    const answer = await addRoute(body);
    expect(answer.status).toBe(400);
    const error = answer.body.error as { param: string | null; message: string };
    if (param !== null) expect(error.param).toBe(param);
    expect(error.message).toMatch(message);
    expect(await store.list()).toEqual([]);
    expect((await (await local.http('/v1/local/routes')).json()) as unknown).toEqual({ object: 'list', data: [] });
    store.close();
  });

  test('a remote model a provider with a model list does not serve is refused', async () => {
    await setup();
    await addProvider(local, { id: 'fixed', base_url: upstream.baseUrl, models: ['big'] });
    const answer = await addRoute({ id: 'auto', local: 'test-scripted', remote: 'fixed/small' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ param: 'remote', code: 'invalid_route', message: expect.stringContaining("serves 'big', not 'small'") });
  });

  test('stored routes come back after a restart; routes given in code are startup, and a bad one is left out (logged)', async () => {
    const dbName = `routes-restart-${Date.now()}`;
    const store = await openIdbRouteStore({ name: dbName });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await setup({ routeStore: store, dbName, routes: [{ id: 'code', local: 'test-scripted', remote: 'lab/tiny', prefer: 'remote' }, { id: 'broken', local: 'nope', remote: 'lab/tiny' }] });
    expect(errors.mock.calls.flat().join(' ')).toMatch(/Route 'broken' given at start is not usable/);
    errors.mockRestore();
    await addRoute({ id: 'saved', local: 'test-scripted', remote: 'lab/tiny' });
    expect((await addRoute({ id: 'code', local: 'test-scripted', remote: 'lab/tiny' })).body.error).toMatchObject({ param: 'id' });
    await closeAndCheck(local);
    await setup({ routeStore: await openIdbRouteStore({ name: dbName }), dbName });
    const list = (await (await local.http('/v1/local/routes')).json()) as { data: Array<{ id: string; source: string }> };
    expect(list.data.map((r) => [r.id, r.source])).toEqual([['saved', 'settings']]);
    store.close();
  });
});

describe('prefer: "local"', () => {
  test('a text request runs on the device, with no request to the provider; response.created names the device model', async () => {
    await setup({ routes: [{ id: 'auto', local: 'test-scripted', remote: 'lab/tiny' }] });
    const events = await streamed({ model: 'auto', input: 'Hello' });
    const created = events.find((e) => e.type === 'response.created') as Extract<ResponseStreamEvent, { type: 'response.created' }>;
    expect(created.response.model).toBe('test-scripted');
    const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
    expect(done.response.output_text).toBe('You said: Hello');
    expect(upstream.requests).toEqual([]);
    expect((await local.client.responses.retrieve(done.response.id)).model).toBe('test-scripted');
  });

  test('an image the device model cannot see goes to the provider, which gets it; response.created names the provider model', async () => {
    await setup({ routes: [{ id: 'auto', local: 'test-scripted', remote: 'lab/tiny' }] });
    const events = await streamed({ model: 'auto', input: [{ role: 'user', content: [{ type: 'input_text', text: 'What is this?' }, { type: 'input_image', image_url: IMAGE, detail: 'auto' }] }] });
    expect((events[0] as Extract<ResponseStreamEvent, { type: 'response.created' }>).response.model).toBe('lab/tiny');
    expect((events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>).response.output_text).toBe('From the server.');
    expect(posts()[0]!.body).toMatchObject({ model: 'tiny', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: IMAGE } }] }] });
  });

  test('a device model that is not downloaded is not downloaded: the provider answers', async () => {
    const manager = notDownloaded();
    await setup({ routes: [{ id: 'auto', local: 'test-scripted', remote: 'lab/tiny' }], modelManager: manager });
    const response = await local.client.responses.create({ model: 'auto', input: 'Hello' });
    expect(response.model).toBe('lab/tiny');
    expect(response.output_text).toBe('From the server.');
    expect(manager.load).not.toHaveBeenCalled();
  });

  test('input plus max_output_tokens beyond the device model’s window goes to the provider; within it stays', async () => {
    await setup({ routes: [{ id: 'auto', local: 'test-scripted', remote: 'lab/tiny' }] });
    expect((await local.client.responses.create({ model: 'auto', input: 'Hi', max_output_tokens: 32_000 })).model).toBe('test-scripted');
    expect((await local.client.responses.create({ model: 'auto', input: 'Hi', max_output_tokens: 32_768 })).model).toBe('lab/tiny');
    const long = 'word '.repeat(30_000);
    expect((await local.client.responses.create({ model: 'auto', input: long, truncation: 'auto' })).model).toBe('lab/tiny');
  });

  test('tools for a device model that cannot call them go to the provider; without tools it stays', async () => {
    await setup({ routes: [{ id: 'auto', local: 'test-scripted', remote: 'lab/tiny' }], engine: new NoToolsEngine() });
    const tools = [{ type: 'function' as const, name: 'f', parameters: { type: 'object', properties: {} }, strict: false }];
    expect((await local.client.responses.create({ model: 'auto', input: 'Call f', tools })).model).toBe('lab/tiny');
    expect((await local.client.responses.create({ model: 'auto', input: 'No tools' })).model).toBe('test-scripted');
  });

  test('neither side: the error names both and why, and nothing is stored', async () => {
    await setup({ routes: [{ id: 'auto', local: 'test-scripted', remote: 'lab/tiny' }] });
    await upstream.close();
    const error = await failed(local.client.responses.create({ model: 'auto', input: [{ role: 'user', content: [{ type: 'input_image', image_url: IMAGE, detail: 'auto' }] }] }));
    expect(error.status).toBe(503);
    expect(error.code).toBe('route_unavailable');
    expect(error.message).toMatch(/route 'auto'.*'test-scripted' cannot see images.*'lab\/tiny' cannot be reached.*Could not reach provider 'lab'/s);
    expect(await local.store.listStored()).toEqual([]);
  });

  test('a request the route’s models both refuse gets the request’s own error', async () => {
    await setup({ routes: [{ id: 'auto', local: 'test-scripted', remote: 'lab/tiny' }] });
    const error = await failed(local.client.responses.create({ model: 'auto', input: 'x', previous_response_id: 'resp_missing' }));
    expect(error.status).toBe(404);
    expect(upstream.requests).toEqual([]);
  });
});

describe('prefer: "remote"', () => {
  test('the provider while it answers, the device once it does not; response.created names each', async () => {
    await setup({ routes: [{ id: 'auto', local: 'test-scripted', remote: 'lab/tiny', prefer: 'remote' }] });
    const up = await streamed({ model: 'auto', input: 'Hello' });
    expect((up[0] as Extract<ResponseStreamEvent, { type: 'response.created' }>).response.model).toBe('lab/tiny');
    expect(posts()).toHaveLength(1);
    await upstream.close();
    const down = await streamed({ model: 'auto', input: 'Hello again' });
    expect((down[0] as Extract<ResponseStreamEvent, { type: 'response.created' }>).response.model).toBe('test-scripted');
    expect((down.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>).response.output_text).toBe('You said: Hello again');
  });

  test('down, and the device cannot take it either: both named', async () => {
    await setup({ routes: [{ id: 'auto', local: 'test-scripted', remote: 'lab/tiny', prefer: 'remote' }], modelManager: notDownloaded() });
    await upstream.close();
    const error = await failed(local.client.responses.create({ model: 'auto', input: 'Hello' }));
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/'test-scripted' cannot take it \('test-scripted' is not downloaded on this device.*'lab\/tiny' cannot be reached/s);
  });

  test('a provider that refuses the request (not unreachable) is its own error, never the device’s answer', async () => {
    await setup({ routes: [{ id: 'auto', local: 'test-scripted', remote: 'lab/gone', prefer: 'remote' }] });
    const error = await failed(local.client.responses.create({ model: 'auto', input: 'Hello' }));
    expect(error.status).toBe(404);
    expect(error.message).toMatch(/'lab\/gone' does not exist/);
  });
});

describe('a provider that answers with a refusal is up', () => {
  test('its model-list read refused (a wrong key) does not send the request to the device: the refusal comes back', async () => {
    await upstream.close();
    upstream = await startFakeUpstream({ apiKey: 'sk-right-key-0000' });
    local = await localClient({
      server: {
        providers: { connect: providerConnector({ appOrigin: APP_ORIGIN, idleTimeoutMs: 2000 }), appOrigin: APP_ORIGIN, reachFreshMs: 0, initial: [{ id: 'lab', baseUrl: upstream.baseUrl, apiKey: 'sk-wrong-key-1111', models: ['tiny'] }] },
        routes: { initial: [{ id: 'auto', local: 'test-scripted', remote: 'lab/tiny', prefer: 'remote' }] },
      },
    });
    const response = await local.client.responses.create({ model: 'auto', input: 'Hello' });
    expect(response.model).toBe('lab/tiny');
    expect(response.status).toBe('failed');
    expect(response.error?.message).toMatch(/refused the request \(401\)/);
    expect(posts()).toHaveLength(1);
  });
});

describe('every turn decides anew', () => {
  test('a chain crosses from the device to the provider, which gets the whole history', async () => {
    await setup({ routes: [{ id: 'auto', local: 'test-scripted', remote: 'lab/tiny' }] });
    const first = await local.client.responses.create({ model: 'auto', input: 'Hello', instructions: 'Be brief.' });
    expect(first.model).toBe('test-scripted');
    const second = await local.client.responses.create({
      model: 'auto',
      previous_response_id: first.id,
      instructions: 'Be brief.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'And this?' }, { type: 'input_image', image_url: IMAGE, detail: 'auto' }] }],
    });
    expect(second.model).toBe('lab/tiny');
    expect(posts()[0]!.body!.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'You said: Hello' },
      { role: 'user', content: [{ type: 'text', text: 'And this?' }, { type: 'image_url', image_url: { url: IMAGE } }] },
    ]);
    // Back to text, but the image is still in the history the device model would be shown: the provider again.
    const third = await local.client.responses.create({ model: 'auto', previous_response_id: second.id, input: 'Thanks' });
    expect(third.model).toBe('lab/tiny');
    // A new chain of text stays on the device.
    expect((await local.client.responses.create({ model: 'auto', input: script('Plain.') })).model).toBe('test-scripted');
  });

  test('a conversation crosses too, and input_tokens and compaction take a route as a model', async () => {
    await setup({ routes: [{ id: 'auto', local: 'test-scripted', remote: 'lab/tiny' }] });
    const conversation = await local.client.conversations.create({});
    expect((await local.client.responses.create({ model: 'auto', conversation: conversation.id, input: 'One' })).model).toBe('test-scripted');
    const imaged = await local.client.responses.create({ model: 'auto', conversation: conversation.id, input: [{ role: 'user', content: [{ type: 'input_image', image_url: IMAGE, detail: 'auto' }] }] });
    expect(imaged.model).toBe('lab/tiny');
    expect((posts()[0]!.body!.messages as Array<{ role: string }>).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const counted = await local.client.responses.inputTokens.count({ model: 'auto', input: 'How long?' });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const compacted = await local.client.responses.compact({ model: 'auto', input: [{ role: 'user', content: 'Summarize me' }] });
    expect(compacted.output.at(-1)!.type).toBe('compaction');
  });

  test('WebSocket mode decides each turn too, a store: false chain on the connection crossing to the provider', async () => {
    await setup({ routes: [{ id: 'auto', local: 'test-scripted', remote: 'lab/tiny' }] });
    const socket = openTestSocket(local.server);
    const first = await socket.create({ model: 'auto', input: 'Hello', store: false });
    expect(first[0]).toMatchObject({ type: 'response.created', response: { model: 'test-scripted' } });
    const firstId = (first.at(-1)!.response as { id: string }).id;
    const second = await socket.create({ model: 'auto', store: false, previous_response_id: firstId, input: [{ role: 'user', content: [{ type: 'input_image', image_url: IMAGE, detail: 'auto' }] }] });
    expect(second[0]).toMatchObject({ type: 'response.created', response: { model: 'lab/tiny' } });
    expect(second.at(-1)).toMatchObject({ type: 'response.completed' });
    expect((posts()[0]!.body!.messages as Array<{ role: string }>).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });
});
