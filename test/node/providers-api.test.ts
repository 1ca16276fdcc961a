/**
 * `/v1/local/providers` and `/v1/models` with remote providers, through the real remote
 * engine speaking HTTP to a scripted upstream (test/fakes/fake-upstream.ts): settings, the
 * key never shown, addresses refused, models listed as `<provider>/<model>`, settings kept in
 * IndexedDB (a session key is not), providers given in code.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openIdbProviderStore } from '../../src/store/idb-provider-store';
import { startFakeUpstream, type FakeUpstream } from '../fakes/fake-upstream';
import { closeAndCheck, type LocalClient } from '../support/local-client';
import { addProvider, providerClient } from '../support/provider-client';

const KEY = 'sk-test-0123456789abcdef-WXYZ';

let upstream: FakeUpstream;
let local: LocalClient;
beforeEach(async () => {
  upstream = await startFakeUpstream({ models: [{ id: 'tiny', n_ctx: 2048 }, 'org/big-model'], apiKey: KEY });
});
afterEach(async () => {
  await closeAndCheck(local);
  await upstream.close();
});

describe('settings', () => {
  test('create, list, read, replace and delete; answers show has_api_key and the last 4 characters, never the key', async () => {
    local = await providerClient();
    const created = await addProvider(local, { id: 'lab', base_url: `${upstream.baseUrl}/`, api_key: KEY });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ object: 'local.provider', id: 'lab', base_url: upstream.baseUrl, api: 'chat_completions', has_api_key: true, api_key_last4: 'WXYZ', key_storage: 'persistent', concurrency: 4, source: 'settings' });
    const list = await (await local.http('/v1/local/providers')).json();
    const one = await (await local.http('/v1/local/providers/lab')).json();
    for (const answer of [created.body, list, one]) expect(JSON.stringify(answer)).not.toContain(KEY.slice(0, 12));
    expect(list).toMatchObject({ object: 'list', data: [{ id: 'lab' }] });

    const replaced = await addProvider(local, { id: 'lab', base_url: upstream.baseUrl, api: 'responses', models: ['tiny'], context_window: 4096, concurrency: 2 });
    expect(replaced.body).toMatchObject({ api: 'responses', models: ['tiny'], context_window: 4096, concurrency: 2, has_api_key: false, api_key_last4: null, key_storage: null });

    expect(await (await local.http('/v1/local/providers/lab', { method: 'DELETE' })).json()).toEqual({ id: 'lab', object: 'local.provider.deleted', deleted: true });
    const gone = await local.http('/v1/local/providers/lab');
    expect(gone.status).toBe(404);
  });

  test.each([
    [{ id: 'Lab', base_url: 'http://127.0.0.1:1/v1' }, 'id'],
    [{ id: 'x'.repeat(33), base_url: 'http://127.0.0.1:1/v1' }, 'id'],
    [{ id: 'lab', base_url: 'http://example.com/v1' }, 'base_url'],
    [{ id: 'lab', base_url: 'ftp://127.0.0.1/v1' }, 'base_url'],
    [{ id: 'lab', base_url: 'https://user:pw@example.com/v1' }, 'base_url'],
    [{ id: 'lab', base_url: 'https://example.com/v1?key=sk-1' }, 'base_url'],
    [{ id: 'lab', base_url: 'http://local.test/v1' }, 'base_url'],
    [{ id: 'lab', base_url: 'not a url' }, 'base_url'],
    [{ id: 'lab', base_url: 'http://127.0.0.1:1/v1', concurrency: 0 }, 'concurrency'],
    [{ id: 'lab', base_url: 'http://127.0.0.1:1/v1', colour: 'red' }, null],
  ])('refuses %j with a 400 naming %s', async (body, param) => {
    local = await providerClient();
    const { status, body: error } = await addProvider(local, body);
    expect(status).toBe(400);
    expect(error).toMatchObject({ error: { type: 'invalid_request_error' } });
    if (param) expect((error.error as { param: string }).param).toBe(param);
  });

  test('http: is allowed for loopback and private networks; https: anywhere', async () => {
    local = await providerClient();
    for (const base_url of ['http://localhost:8080/v1', 'http://192.168.1.20:8000/v1', 'http://[::1]:8080/v1', 'http://gpu-box:11434/v1', 'https://api.openai.com/v1'])
      expect((await addProvider(local, { id: 'p', base_url })).status, base_url).toBe(200);
  });

  test('stored in IndexedDB with a persistent key; a session-only key lives in memory and is gone after a restart', async () => {
    const dbName = `providers-${Date.now()}`;
    local = await providerClient({ dbName, store: await openIdbProviderStore({ name: dbName }) });
    await addProvider(local, { id: 'kept', base_url: upstream.baseUrl, api_key: KEY });
    await addProvider(local, { id: 'brief', base_url: upstream.baseUrl, api_key: KEY, key_storage: 'session' });
    const rows = await (await openIdbProviderStore({ name: dbName })).list();
    expect(rows.find((r) => r.id === 'kept')?.apiKey).toBe(KEY);
    expect(rows.find((r) => r.id === 'brief')).toMatchObject({ keyStorage: 'session' });
    expect(JSON.stringify(rows.find((r) => r.id === 'brief'))).not.toContain(KEY);
    await local.server.close();

    // The next runtime: the kept key works; the session one must be entered again, and the failure says so.
    const again = await providerClient({ dbName, store: await openIdbProviderStore({ name: dbName }) });
    const listed = (await (await again.http('/v1/local/providers')).json()) as { data: Array<{ id: string; has_api_key: boolean; key_storage: string }> };
    expect(listed.data.map((p) => [p.id, p.has_api_key, p.key_storage])).toEqual([
      ['brief', false, 'session'],
      ['kept', true, 'persistent'],
    ]);
    expect((await again.client.models.list()).data.map((m) => m.id)).toContain('kept/tiny');
    const refused = await again.http('/v1/local/providers/brief/models');
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/Provider 'brief' refused the request \(401\).*session only.*enter it again/);
    await closeAndCheck(again);
  });

  test('providers given in code are listed as startup, keep their key in memory and cannot be replaced by a request', async () => {
    local = await providerClient({ initial: [{ id: 'boot', baseUrl: upstream.baseUrl, apiKey: KEY, contextWindow: 1000 }] });
    const boot = await (await local.http('/v1/local/providers/boot')).json();
    expect(boot).toMatchObject({ source: 'startup', has_api_key: true, context_window: 1000 });
    const models = await local.client.models.list();
    expect(models.data.find((m) => m.id === 'boot/tiny')).toMatchObject({ owned_by: 'boot', context_window: 1000 });
    const replace = await addProvider(local, { id: 'boot', base_url: upstream.baseUrl });
    expect(replace.status).toBe(400);
  });

  test('a provider given in code that is not valid is left out (and logged); the runtime starts', async () => {
    local = await providerClient({ initial: [{ id: 'Bad Id', baseUrl: upstream.baseUrl }, { id: 'web', baseUrl: 'http://example.com/v1' }, { id: 'ok', baseUrl: upstream.baseUrl }] });
    const listed = (await (await local.http('/v1/local/providers')).json()) as { data: Array<{ id: string }> };
    expect(listed.data.map((p) => p.id)).toEqual(['ok']);
  });
});

describe('models', () => {
  test('/v1/models lists each upstream model as <provider>/<id>, owned by the provider, with the context window it reports', async () => {
    local = await providerClient();
    await addProvider(local, { id: 'lab', base_url: upstream.baseUrl, api_key: KEY });
    const models = (await local.client.models.list()).data as unknown as Array<Record<string, unknown>>;
    expect(models.find((m) => m.id === 'test-scripted')).toBeDefined();
    expect(models.filter((m) => m.owned_by === 'lab')).toEqual([
      expect.objectContaining({ id: 'lab/tiny', object: 'model', owned_by: 'lab', engine: 'remote', context_window: 2048, chat_format: 'upstream' }),
      expect.objectContaining({ id: 'lab/org/big-model', owned_by: 'lab', engine: 'remote' }),
    ]);
    expect(await local.client.models.retrieve('lab/org/big-model')).toMatchObject({ id: 'lab/org/big-model', owned_by: 'lab' });
    // Sent with the key, to the provider's origin.
    expect(upstream.requests.find((r) => r.path === '/v1/models')?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  test('Test connection answers the models, or why not: a wrong key (the upstream’s echo of it blanked), an unreachable server', async () => {
    local = await providerClient();
    await addProvider(local, { id: 'lab', base_url: upstream.baseUrl, api_key: KEY });
    const ok = await (await local.http('/v1/local/providers/lab/models')).json();
    expect(ok).toEqual({ object: 'list', data: [expect.objectContaining({ id: 'lab/tiny', owned_by: 'lab' }), expect.objectContaining({ id: 'lab/org/big-model' })] });

    const wrong = 'sk-wrong-key-that-must-never-show-1234';
    await addProvider(local, { id: 'bad', base_url: upstream.baseUrl, api_key: wrong });
    const refused = await local.http('/v1/local/providers/bad/models');
    const text = await refused.text();
    expect(refused.status).toBe(401);
    expect(text).toMatch(/Provider 'bad' refused the request \(401\).*Check its API key/);
    expect(text).not.toContain(wrong);

    const closed = await startFakeUpstream();
    await closed.close();
    await addProvider(local, { id: 'down', base_url: closed.baseUrl });
    const down = await local.http('/v1/local/providers/down/models');
    expect(down.status).toBe(502);
    const message = ((await down.json()) as { error: { message: string; code: string } }).error;
    expect(message.code).toBe('provider_unreachable');
    expect(message.message).toMatch(/Could not reach provider 'down'.*not running.*CORS.*--cors-origins.*--allowed-origins.*OLLAMA_ORIGINS.*LM Studio/);
    // /v1/models still answers: a provider that is down shows no models, the rest stay.
    expect((await local.client.models.list()).data.map((m) => m.id)).toContain('lab/tiny');
  });

  test('a model the provider does not serve is a 404 before anything is stored; no other model answers instead', async () => {
    local = await providerClient();
    await addProvider(local, { id: 'lab', base_url: upstream.baseUrl, api_key: KEY });
    await expect(local.client.responses.create({ model: 'lab/gpt-9', input: 'Hi' })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    await expect(local.client.responses.create({ model: 'nolab/tiny', input: 'Hi' })).rejects.toMatchObject({ status: 404 });
    expect(((await (await local.http('/v1/local/responses')).json()) as { data: unknown[] }).data).toEqual([]);
    expect(upstream.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });
});
