/**
 * Remote providers in Chromium, against a real llama.cpp `llama-server` (test/support/
 * llama-server.ts) on another 127.0.0.1 port — another origin, so CORS applies for real —
 * through the real `openai` SDK in the page and the service worker. The provider is added
 * the way same-origin code does (`POST /v1/local/providers`); the runtime worker calls the
 * upstream itself. What a tiny model will not do on demand (a tool call) comes from the
 * scripted upstream (test/fakes/fake-upstream.ts), also on its own origin.
 */
import type { Page } from 'playwright-core';
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { configureRuntime, openApp, startE2E, waitForRuntime } from '../support/browser';
import { lastTurn, screenshot, send } from './app-support';
import { LLAMA_SERVER, LLAMA_SERVER_MISSING, startLlamaServer, type LlamaServer } from '../support/llama-server';
import { startFakeUpstream, type FakeUpstream } from '../fakes/fake-upstream';

if (!LLAMA_SERVER) console.warn(`[providers e2e] skipped: ${LLAMA_SERVER_MISSING}`);

const KEY = 'sk-e2e-llama-key-5d1f0a7e93';

let e2e: Awaited<ReturnType<typeof startE2E>>;
let llama: LlamaServer;
let keyed: LlamaServer;
let embed: LlamaServer;
let fake: FakeUpstream;
let page: Page;
let model: string;

describe.skipIf(!LLAMA_SERVER)('a llama-server provider', () => {
  beforeAll(async () => {
    [e2e, llama, keyed, embed, fake] = await Promise.all([startE2E(), startLlamaServer(), startLlamaServer({ apiKey: KEY, slots: 1 }), startLlamaServer({ apiKey: KEY, slots: 1, embeddings: true }), startFakeUpstream()]);
    const context = await e2e.browser.newContext();
    // New vector stores embed with the embedding server's model (added below, as a provider).
    const fileSearch = { embeddingModel: `embed/${embed.model}` };
    await configureRuntime(context, e2e.app.origin, { options: { tools: { python: { timeLimitMs: 10_000 } }, fileSearch } });
    page = await openApp(context, e2e.app.origin);
    model = `llama/${llama.model}`;
    for (const body of [
      { id: 'llama', base_url: llama.baseUrl },
      { id: 'keyed', base_url: keyed.baseUrl, api_key: KEY },
      { id: 'embed', base_url: embed.baseUrl, api_key: KEY },
      { id: 'fake', base_url: fake.baseUrl, models: ['tiny'] },
    ])
      expect(await post('/v1/local/providers', body)).toMatchObject({ status: 200 });
  }, 90_000);
  afterAll(async () => {
    await Promise.all([e2e?.close(), llama?.close(), keyed?.close(), embed?.close(), fake?.close()]);
  });

  function post(path: string, body: unknown) {
    return page.evaluate(
      async ({ path, body }) => {
        const r = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: r.status, body: (await r.json()) as unknown };
      },
      { path, body },
    );
  }

  function create(body: Record<string, unknown>) {
    return page.evaluate((b) => window.sdk!.responses.create(b as never) as Promise<Response>, { model, ...body });
  }

  test('its models are listed as llama/<id>; at temperature 0 the text through /v1 is the server’s own answer, plain and streamed', async () => {
    const result = await page.evaluate(
      async ({ model, baseUrl, upstreamModel }) => {
        const listed = (await window.sdk!.models.list()).data.filter((m) => m.owned_by === 'llama').map((m) => m.id);
        const prompt = 'Once upon a time';
        const direct = await fetch(`${baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: upstreamModel, messages: [{ role: 'user', content: prompt }], temperature: 0, max_tokens: 24 }),
        }).then((r) => r.json() as Promise<{ choices: Array<{ message: { content: string } }> }>);
        const plain = await window.sdk!.responses.create({ model, input: prompt, temperature: 0, max_output_tokens: 24 });
        let streamed = '';
        const events: string[] = [];
        for await (const e of await window.sdk!.responses.create({ model, input: prompt, temperature: 0, max_output_tokens: 24, stream: true })) {
          events.push(e.type);
          if (e.type === 'response.output_text.delta') streamed += e.delta;
        }
        return { listed, direct: direct.choices[0]!.message.content, plain: plain.output_text, status: plain.status, usage: plain.usage, streamed, events };
      },
      { model, baseUrl: llama.baseUrl, upstreamModel: llama.model },
    );
    expect(result.listed).toEqual([model]);
    expect(result.direct.length).toBeGreaterThan(0);
    expect(result.plain).toBe(result.direct);
    expect(result.streamed).toBe(result.direct);
    expect(['completed', 'incomplete']).toContain(result.status);
    // The upstream's own counts.
    expect(result.usage?.input_tokens).toBeGreaterThan(0);
    expect(result.usage?.output_tokens).toBeGreaterThan(0);
    expect(result.events[0]).toBe('response.created');
    expect(result.events.at(-1)).toMatch(/^response\.(completed|incomplete)$/);
  });

  test('the Responses wire (api: "responses"): the server’s own /responses answer, plain and streamed, and a chain sent whole (store: false upstream)', async () => {
    expect(await post('/v1/local/providers', { id: 'llamar', base_url: llama.baseUrl, api: 'responses' })).toMatchObject({ status: 200 });
    const result = await page.evaluate(
      async ({ model, baseUrl, upstreamModel }) => {
        const direct = async (input: unknown) => {
          const r = await fetch(`${baseUrl}/responses`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ model: upstreamModel, input, temperature: 0, max_output_tokens: 16, store: false }),
          });
          const body = (await r.json()) as { output?: Array<{ content?: Array<{ text?: string }> }> };
          if (!body.output) throw new Error(`the server's /responses answered ${r.status}: ${JSON.stringify(body).slice(0, 300)}`);
          return body.output.flatMap((o) => o.content ?? []).map((c) => c.text ?? '').join('');
        };
        const first = await window.sdk!.responses.create({ model, input: 'Once upon a time', temperature: 0, max_output_tokens: 16 });
        let streamed = '';
        for await (const e of await window.sdk!.responses.create({ model, input: 'Once upon a time', temperature: 0, max_output_tokens: 16, stream: true }))
          if (e.type === 'response.output_text.delta') streamed += e.delta;
        const second = await window.sdk!.responses.create({ model, previous_response_id: first.id, input: 'The end', temperature: 0, max_output_tokens: 16 });
        const whole = [
          { type: 'message', role: 'user', content: 'Once upon a time' },
          { type: 'message', role: 'assistant', content: first.output_text },
          { type: 'message', role: 'user', content: 'The end' },
        ];
        return { first: first.output_text, streamed, second: second.output_text, secondStatus: second.status, directFirst: await direct('Once upon a time'), directSecond: await direct(whole) };
      },
      { model: `llamar/${llama.model}`, baseUrl: llama.baseUrl, upstreamModel: llama.model },
    );
    expect(result.directFirst.length).toBeGreaterThan(0);
    expect(result.first).toBe(result.directFirst);
    expect(result.streamed).toBe(result.directFirst);
    // The upstream keeps nothing: the chain's second turn is what the server says to the whole conversation.
    expect(result.secondStatus).toBe('completed');
    expect(result.second).toBe(result.directSecond);
  });

  test('everything stateful stays here: background, resume with starting_after, input items, previous_response_id, conversations, delete, input_tokens', async () => {
    const result = await page.evaluate(async (model) => {
      const sdk = window.sdk!;
      const started = await sdk.responses.create({ model, input: 'Once upon a time', background: true, stream: true, max_output_tokens: 16, temperature: 0 });
      const seen: number[] = [];
      let responseId = '';
      for await (const e of started) {
        seen.push(e.sequence_number);
        if (e.type === 'response.created') responseId = e.response.id;
        if (seen.length === 3) break;
      }
      const rest: number[] = [];
      for await (const e of await sdk.responses.retrieve(responseId, { stream: true, starting_after: seen[2]! })) rest.push(e.sequence_number);
      const done = await sdk.responses.retrieve(responseId);
      const items = await sdk.responses.inputItems.list(responseId);
      const next = await sdk.responses.create({ model, previous_response_id: responseId, input: 'And then?', max_output_tokens: 16, temperature: 0 });
      const tokens = await (await fetch('/v1/responses/input_tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, previous_response_id: next.id, input: 'More' }) })).json();
      const conversation = await sdk.conversations.create({});
      await sdk.responses.create({ model, conversation: conversation.id, input: 'Hello', max_output_tokens: 16, temperature: 0 });
      await sdk.responses.create({ model, conversation: conversation.id, input: 'Again', max_output_tokens: 16, temperature: 0 });
      const conversationItems = await sdk.conversations.items.list(conversation.id, { order: 'asc' });
      const deleted = await sdk.responses.delete(next.id).then(() => true);
      const gone = await sdk.responses.retrieve(next.id).then(() => 'found', (e: { status?: number }) => e.status);
      return { first: seen[0], rest, done: done.status, text: done.output_text, items: items.data.length, next: next.status, tokens, conversationTypes: conversationItems.data.map((i) => i.type), deleted, gone };
    }, model);
    expect(result.first).toBe(0);
    expect(result.rest[0]).toBe(3);
    expect(result.rest).toEqual([...result.rest].sort((a, b) => a - b));
    expect(['completed', 'incomplete']).toContain(result.done);
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.items).toBe(1);
    expect(['completed', 'incomplete']).toContain(result.next);
    expect(result.tokens).toMatchObject({ object: 'response.input_tokens', estimated: true });
    expect(result.conversationTypes).toEqual(['message', 'message', 'message', 'message']);
    expect(result.gone).toBe(404);
  });

  test('structured output and logprobs come from the upstream', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    const json = await create({ input: 'Where?', temperature: 0, max_output_tokens: 40, text: { format: { type: 'json_schema', name: 'place', schema, strict: true } } });
    if (llama.modelName === 'stories260K') expect(json.output_text).toMatch(/^\{\s*"city"\s*:/);
    // The generated tiny llama's vocabulary cannot take a grammar: the server's own refusal is passed on.
    else expect(json.error?.message).toMatch(/^Provider 'llama' answered 400: Failed to initialize samplers/);
    const withLogprobs = await create({ input: 'Once upon a time', temperature: 0, max_output_tokens: 16, top_logprobs: 2, include: ['message.output_text.logprobs'] });
    const part = (withLogprobs.output[0] as { content: Array<{ text: string; logprobs: Array<{ token: string; top_logprobs: unknown[] }> }> }).content[0]!;
    expect(part.logprobs.length).toBeGreaterThan(0);
    expect(part.logprobs.map((l) => l.token).join('')).toBe(part.text);
    expect(part.logprobs[0]!.top_logprobs).toHaveLength(2);
  });

  test('a local and a remote response run at the same time; cancel stops the upstream answer at once', async () => {
    const result = await page.evaluate(async (model) => {
      const sdk = window.sdk!;
      const t0 = performance.now();
      const local = sdk.responses.create({ model: 'test-scripted', input: JSON.stringify({ script: 'slow local answer', delay_ms: 150 }) }).then(() => performance.now() - t0);
      const remote = sdk.responses.create({ model, input: 'Once upon a time', max_output_tokens: 16 }).then(() => performance.now() - t0);
      const [localMs, remoteMs] = await Promise.all([local, remote]);
      const long = await sdk.responses.create({ model, input: 'Once upon a time', background: true, max_output_tokens: 1500 });
      const cancelled = await sdk.responses.cancel(long.id);
      return { localMs, remoteMs, cancelled: cancelled.status };
    }, model);
    expect(result.remoteMs).toBeLessThan(result.localMs);
    expect(result.cancelled).toBe('cancelled');
  });

  test('compaction: the summary is written by the same remote model', async () => {
    const result = await page.evaluate(async (model) => {
      const compacted = await window.sdk!.responses.compact({ model, input: [{ role: 'user', content: 'Once upon a time' }, { role: 'assistant', content: 'there was a cat.' }, { role: 'user', content: 'Go on' }] });
      return compacted.output.map((i) => i.type);
    }, model);
    expect(result.at(-1)).toBe('compaction');
  });

  test('a key is sent to its provider only and stored nowhere else; a wrong key fails naming the provider', async () => {
    const result = await page.evaluate(async () => {
      const sdk = window.sdk!;
      const ok = await sdk.responses.create({ model: 'keyed/' + (await sdk.models.list()).data.find((m) => m.owned_by === 'keyed')!.id.split('/')[1], input: 'Once upon a time', max_output_tokens: 16, stream: false, background: false });
      await fetch('/v1/local/providers', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'wrong', base_url: (await (await fetch('/v1/local/providers/keyed')).json()).base_url, api_key: 'sk-not-the-key-000000', models: ['x'] }) });
      const failed = await sdk.responses.create({ model: 'wrong/x', input: 'Hi' });
      // Every IndexedDB store of the origin but the providers' own.
      const dump: unknown[] = [];
      for (const info of await indexedDB.databases()) {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const r = indexedDB.open(info.name!);
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error);
        });
        for (const name of [...db.objectStoreNames].filter((n) => n !== 'providers' && n !== 'keys')) {
          const rows = await new Promise<unknown[]>((resolve) => {
            const r = db.transaction(name).objectStore(name).getAll();
            r.onsuccess = () => resolve(r.result);
          });
          dump.push(rows);
        }
        db.close();
      }
      const providers = await (await fetch('/v1/local/providers')).text();
      return { ok: ok.status, failed: failed.status, message: failed.error?.message ?? '', dump: JSON.stringify(dump), providers };
    });
    expect(['completed', 'incomplete']).toContain(result.ok);
    expect(result.failed).toBe('failed');
    expect(result.message).toMatch(/^Provider 'wrong' refused the request \(401\): Invalid API Key\. Check its API key/);
    expect(result.dump.length).toBeGreaterThan(100);
    expect(result.dump).not.toContain(KEY);
    expect(result.dump).not.toContain('sk-not-the-key');
    expect(result.providers).not.toContain(KEY);
  });

  test('a server that does not allow this origin (CORS): failed, saying so and how to allow it', async () => {
    const strict = await startFakeUpstream({ allowOrigin: null });
    try {
      expect(await post('/v1/local/providers', { id: 'strict', base_url: strict.baseUrl, models: ['tiny'] })).toMatchObject({ status: 200 });
      const response = await create({ model: 'strict/tiny', input: 'Hi' });
      expect(response.status).toBe('failed');
      // The runtime worker cannot read why (a cross-origin-isolated worker cannot even probe without CORS): both causes are named.
      expect(response.error?.message).toContain(`Could not reach provider 'strict' at ${strict.baseUrl}.`);
      expect(response.error?.message).toMatch(/does not allow (this origin|requests from http:\/\/127\.0\.0\.1:\d+) \(CORS\).*--cors-origins.*--allowed-origins.*OLLAMA_ORIGINS.*Enable CORS/);
    } finally {
      await strict.close();
    }
  });

  test('a provider’s model embeds: embeddings.create through /v1 gives the server’s own vectors; a vector store made with it searches by them', async () => {
    const result = await page.evaluate(
      async ({ baseUrl, key, upstreamModel }) => {
        const sdk = window.sdk!;
        const direct = async (input: string[]) => {
          const r = await fetch(`${baseUrl}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify({ model: upstreamModel, input, encoding_format: 'float' }) });
          return ((await r.json()) as { data: Array<{ index: number; embedding: number[] }> }).data.sort((a, b) => a.index - b.index).map((d) => d.embedding);
        };
        const inputs = ['Once upon a time', 'The cat sat on the mat.'];
        // The SDK asks for base64 by default: made here from the floats the server sent.
        const viaV1 = await sdk.embeddings.create({ model: `embed/${upstreamModel}`, input: inputs });
        const store = await sdk.vectorStores.create({ name: 'stories' });
        for (const [name, text] of [['dog.txt', 'The little dog ran to the park.'], ['cat.txt', 'The cat slept in the sun all day.']] as const)
          await sdk.vectorStores.files.uploadAndPoll(store.id, new File([text], name, { type: 'text/plain' }), { pollIntervalMs: 50 });
        const files = (await sdk.vectorStores.files.list(store.id)).data.map((f) => f.status);
        const hybrid = await sdk.vectorStores.search(store.id, { query: 'dog park' });
        const byVectors = (await (
          await fetch(`/v1/vector_stores/${store.id}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'dog park', ranking_options: { hybrid_search: { embedding_weight: 1, text_weight: 0 } } }) })
        ).json()) as { data: Array<{ filename: string; score: number; content: Array<{ text: string }> }> };
        const [query] = await direct(['dog park']);
        const chunks = await direct(byVectors.data.map((d) => d.content[0]!.text));
        const cosines = chunks.map((v) => v.reduce((s, x, i) => s + x * query![i]!, 0));
        return { direct: await direct(inputs), viaV1: viaV1.data.map((d) => d.embedding), model: viaV1.model, files, hybrid: hybrid.data.map((d) => d.filename), byVectors: byVectors.data.map((d) => d.score), cosines };
      },
      { baseUrl: embed.baseUrl, key: KEY, upstreamModel: embed.model },
    );
    expect(result.model).toBe(`embed/${embed.model}`);
    expect(result.viaV1.map((v) => v.length)).toEqual(result.direct.map((v) => v.length));
    expect(result.direct[0]!.length).toBeGreaterThan(0);
    // The server's vectors are normalised already; here they are float32 (and normalised again).
    result.viaV1.forEach((v, i) => v.forEach((x, j) => expect(x).toBeCloseTo(result.direct[i]![j]!, 5)));
    expect(result.files).toEqual(['completed', 'completed']);
    expect(result.hybrid[0]).toBe('dog.txt');
    // Ranked by the cosine of the server's own vectors of the query and of each chunk.
    expect(result.byVectors).toHaveLength(2);
    result.byVectors.forEach((score, i) => expect(score).toBeCloseTo(Math.max(0, Math.min(1, result.cosines[i]!)), 3));
  });

  test('builtin tools run here: Python in this browser, called by the remote model as a function', async () => {
    fake.reply = (body) =>
      (body.messages as Array<{ role: string }>).some((m) => m.role === 'tool')
        ? { kind: 'chat', pieces: ['The answer is ', JSON.stringify((body.messages as Array<{ role: string; content: string }>).at(-1)!.content).includes('42') ? '42.' : '?'] }
        : { kind: 'chat', finish: 'tool_calls', pieces: [{ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'python', arguments: '{"code": "print(6*7)"}' } }] }] };
    const events = await page.evaluate(async () => {
      const out: ResponseStreamEvent[] = [];
      for await (const e of await window.sdk!.responses.create({ model: 'fake/tiny', input: '6*7?', stream: true, tools: [{ type: 'code_interpreter', container: { type: 'auto' } }], include: ['code_interpreter_call.outputs'] })) out.push(e);
      return out;
    });
    const done = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
    expect(done.type).toBe('response.completed');
    expect(done.response.output.map((i) => i.type)).toEqual(['code_interpreter_call', 'message']);
    expect(done.response.output[0]).toMatchObject({ code: 'print(6*7)', outputs: [{ type: 'logs', logs: '42\n' }] });
    expect(done.response.output_text).toBe('The answer is 42.');
  });

  test('the app: Settings → Providers adds the server and Test connection lists its models; the picker groups them; chosen, the app says where messages go and never that nothing leaves', async () => {
    const app = await (await e2e.browser.newContext()).newPage();
    await app.goto(`${e2e.app.origin}/?test-models`);
    await waitForRuntime(app);
    await app.getByRole('button', { name: 'Settings' }).click();
    const settings = app.getByRole('dialog', { name: 'Settings' });
    await settings.getByLabel('Provider name (a–z, 0–9, -)').fill('box');
    await settings.getByLabel('Provider address (its OpenAI base URL)').fill(llama.baseUrl);
    await settings.getByRole('button', { name: 'Add provider' }).click();
    const row = settings.locator('li[data-provider="box"]');
    await expect.poll(() => row.getByRole('status').textContent(), { timeout: 15_000 }).toBe(`Connected. Models: box/${llama.model}`);
    await app.keyboard.press('Escape');

    await app.locator('button.model-button').click();
    const picker = app.getByRole('dialog', { name: 'Models' });
    const group = picker.getByRole('region', { name: 'On box (a provider’s server)' });
    await group.locator(`li.model[data-model-id="box/${llama.model}"]`).getByRole('button', { name: 'Use' }).click();
    await app.keyboard.press('Escape');

    const notice = app.locator('.remote-notice');
    await expect.poll(() => notice.textContent()).toBe(`Messages to this model go to the provider box at ${llama.baseUrl}, whose server runs it. Your chats and tools stay in this browser.`);
    expect(await app.getByText('Nothing you type leaves this device').count()).toBe(0);
    expect(await app.getByText('What you type goes to the server of the provider box').count()).toBe(1);
    await send(app, 'Once upon a time');
    // stories260K writes until its context is full (incomplete); the tiny llama stops by itself.
    await lastTurn(app).and(app.locator('[data-turn-status="completed"], [data-turn-status="incomplete"]')).waitFor({ timeout: 30_000 });
    expect((await lastTurn(app).textContent())?.length).toBeGreaterThan('Once upon a time'.length);
    await screenshot(app, 'providers-chat');
  });
});
