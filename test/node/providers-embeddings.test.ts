/**
 * A provider's model as an embedder, through the real `openai` SDK against the scripted
 * upstream (test/fakes/fake-upstream.ts) on a real 127.0.0.1 port: `POST /v1/embeddings` with
 * `model: "<provider>/<upstream id>"` (shape, order, batching, base64, `dimensions` passed on),
 * its failures naming the provider and never showing the key, and hybrid file search whose
 * vectors the provider makes — keyword search still answering when it is down.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { toFile } from 'openai';
import { fakeVector, startFakeUpstream, type FakeUpstream } from '../fakes/fake-upstream';
import { closeAndCheck, failed, type LocalClient } from '../support/local-client';
import { providerClient, type ProviderClientOptions } from '../support/provider-client';

const KEY = 'sk-embed-secret-0123456789abcdef';

let upstream: FakeUpstream;
let local: LocalClient;
beforeEach(async () => {
  upstream = await startFakeUpstream({ apiKey: KEY });
});
afterEach(async () => {
  if (local) await closeAndCheck(local);
  await upstream.close();
});


/** What the runtime should answer for `text`: the upstream's vector, normalised. */
function normalised(text: string, dimensions = 32): number[] {
  const v = fakeVector(text, dimensions);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

const close = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => Math.abs(x - b[i]!) < 1e-6);
const embeddingRequests = () => upstream.requests.filter((r) => r.path === '/v1/embeddings');

async function setup(files?: ProviderClientOptions['files']) {
  local = await providerClient({ initial: [{ id: 'lab', baseUrl: upstream.baseUrl, apiKey: KEY, models: ['chat'] }], ...(files ? { files } : {}) });
}

test('shape, order and usage; 150 inputs go as 64 + 64 + 22, each request keyed, the upstream id, floats asked; the SDK’s base64 decodes to the same', async () => {
  await setup();
  const inputs = Array.from({ length: 150 }, (_, i) => `line ${i} of the harbour log`);
  const floats = await local.client.embeddings.create({ model: 'lab/emb', input: inputs, encoding_format: 'float' });
  expect(floats.object).toBe('list');
  expect(floats.model).toBe('lab/emb');
  expect(floats.data.map((d) => d.index)).toEqual(inputs.map((_, i) => i));
  // In input order although the upstream listed them reversed (by their `index`), normalised.
  expect(floats.data.every((d, i) => close(d.embedding, normalised(inputs[i]!)))).toBe(true);
  expect(floats.usage).toEqual({ prompt_tokens: 150 * 6, total_tokens: 150 * 6 });
  const sent = embeddingRequests();
  expect(sent.map((r) => (r.body!.input as string[]).length)).toEqual([64, 64, 22]);
  expect(sent.flatMap((r) => r.body!.input as string[])).toEqual(inputs);
  for (const r of sent) {
    expect(r.body).toMatchObject({ model: 'emb', encoding_format: 'float' });
    expect(r.body).not.toHaveProperty('dimensions');
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
  }

  // The SDK asks for base64 by default; it is made here from the same vectors.
  const byDefault = await local.client.embeddings.create({ model: 'lab/emb', input: 'red apples' });
  expect(close(byDefault.data[0]!.embedding, normalised('red apples'))).toBe(true);
  expect(embeddingRequests().at(-1)!.body).toMatchObject({ encoding_format: 'float' });
  const raw = (await (await local.http('/v1/embeddings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'lab/emb', input: 'x', encoding_format: 'base64' }) })).json()) as { data: Array<{ embedding: unknown }> };
  expect(typeof raw.data[0]!.embedding).toBe('string');
});

test('dimensions is passed upstream only when given; an upstream that does not shorten is a 400 naming the provider', async () => {
  await setup();
  const short = await local.client.embeddings.create({ model: 'lab/emb', input: 'red apples', dimensions: 8, encoding_format: 'float' });
  expect(embeddingRequests().at(-1)!.body).toMatchObject({ dimensions: 8 });
  expect(close(short.data[0]!.embedding, normalised('red apples', 8))).toBe(true);
  // llama.cpp, for one, ignores `dimensions`: the client is told, not handed longer vectors.
  upstream.embeddings = (body) => ({ kind: 'json', body: { data: (body.input as string[]).map((t, index) => ({ index, embedding: fakeVector(t, 32) })) } });
  const ignored = await failed(local.client.embeddings.create({ model: 'lab/emb', input: 'red apples', dimensions: 8 }));
  expect(ignored.status).toBe(400);
  expect(ignored.param).toBe('dimensions');
  expect(ignored.message).toMatch(/^400 Provider 'lab' made vectors of 32 dimensions where 'dimensions' asked for 8/);
});

test('failures name the provider and never show the key: its 400 passed on, 401, 404 model, malformed answers, a redirect not followed, unreachable', async () => {
  await setup();
  upstream.embeddings = () => ({ kind: 'error', status: 400, body: { error: { message: 'This model does not support specifying dimensions.', type: 'invalid_request_error', param: 'dimensions' } } });
  const refused = await failed(local.client.embeddings.create({ model: 'lab/emb', input: 'x', dimensions: 8 }));
  expect(refused.status).toBe(400);
  expect(refused.message).toBe("400 Provider 'lab' answered 400: This model does not support specifying dimensions");

  upstream.embeddings = () => ({ kind: 'error', status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}.`, code: 'invalid_api_key' } } });
  const auth = await failed(local.client.embeddings.create({ model: 'lab/emb', input: 'x' }));
  expect(auth.status).toBe(401);
  expect(auth.message).toMatch(/^401 Provider 'lab' refused the request \(401\)/);
  expect(auth.message).not.toContain(KEY);
  expect(auth.message).toContain('[redacted]');

  upstream.embeddings = () => ({ kind: 'error', status: 404, body: { error: { message: 'model not found' } } });
  const missing = await failed(local.client.embeddings.create({ model: 'lab/nope', input: 'x' }));
  expect(missing).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
  expect(missing.message).toMatch(/^404 Provider 'lab' does not serve the model 'nope'/);

  for (const body of [{ data: [] }, { data: [{ index: 0, embedding: ['a'] }] }, { object: 'list' }, { data: [{ index: 0, embedding: new Array(20_000).fill(0.1) }] }]) {
    upstream.embeddings = () => ({ kind: 'json', body });
    const bad = await failed(local.client.embeddings.create({ model: 'lab/emb', input: 'x' }));
    expect(bad.status).toBe(502);
    expect(bad.message).toMatch(/^502 Provider 'lab': its answer to POST \/embeddings for 'emb' /);
  }

  // A redirect is refused: neither the key nor the inputs follow it.
  const elsewhere = await startFakeUpstream();
  try {
    upstream.movedTo = elsewhere.origin;
    const redirected = await failed(local.client.embeddings.create({ model: 'lab/emb', input: 'x' }));
    expect(redirected.message).toMatch(/provider 'lab'/i);
    expect(elsewhere.requests.filter((r) => r.method === 'POST')).toEqual([]);
    expect(elsewhere.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  } finally {
    upstream.movedTo = null;
    await elsewhere.close();
  }

  // An unknown provider is no model at all; a provider that is down says so, by name.
  expect((await failed(local.client.embeddings.create({ model: 'nowhere/emb', input: 'x' }))).status).toBe(404);
  await upstream.close();
  const down = await failed(local.client.embeddings.create({ model: 'lab/emb', input: 'x' }));
  expect(down.status).toBe(502);
  expect(down.message).toMatch(/^502 Could not reach provider 'lab' at http:\/\/127\.0\.0\.1:\d+\/v1\./);
  expect(down.message).not.toContain(KEY);
  upstream = await startFakeUpstream();
});

test('a client that gives up closes the upstream request', async () => {
  await setup();
  upstream.embeddings = () => ({ kind: 'silence' });
  const controller = new AbortController();
  const pending = local.client.embeddings.create({ model: 'lab/emb', input: 'x' }, { signal: controller.signal }).catch((e: unknown) => e);
  await expect.poll(() => embeddingRequests().length).toBe(1);
  controller.abort();
  await pending;
  await expect.poll(() => embeddingRequests()[0]!.closedEarly).toBe(true);
});

test('file search: a store embeds with the provider’s model, hybrid search uses it; with the provider down keyword search still answers and a new file fails naming it', async () => {
  await setup({ embeddingModel: 'lab/emb' });
  const sdk = local.client;
  const store = await sdk.vectorStores.create({ name: 'docs' });
  for (const [name, text] of [
    ['a.txt', 'Lighthouses guide ships at night.'],
    ['b.txt', 'Pelicans nest on the rocks in spring.'],
  ] as const)
    expect((await sdk.vectorStores.files.uploadAndPoll(store.id, await toFile(new TextEncoder().encode(text), name), { pollIntervalMs: 5 })).status).toBe('completed');
  const embedded = embeddingRequests().map((r) => r.body!.input);
  expect(embedded).toEqual([['Lighthouses guide ships at night.'], ['Pelicans nest on the rocks in spring.']]);
  // The store learnt the length of the provider's vectors from its first file.
  expect((await local.fileStore!.getVectorStore(store.id))!.embedder).toEqual({ model: 'lab/emb', dimensions: 32 });

  const hit = await sdk.vectorStores.search(store.id, { query: 'lighthouses ships' });
  expect(hit.data[0]).toMatchObject({ filename: 'a.txt', score: 1 });
  expect(embeddingRequests().at(-1)!.body!.input).toEqual(['lighthouses ships']);
  const search = async (query: string, embedding_weight: number, text_weight: number) =>
    (await (
      await local.http(`/v1/vector_stores/${store.id}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, ranking_options: { hybrid_search: { embedding_weight, text_weight } } }) })
    ).json()) as { data: Array<{ filename: string; score: number }> };
  const cosine = normalised('lighthouses ships').reduce((s, x, i) => s + x * normalised('Lighthouses guide ships at night.')[i]!, 0);
  expect((await search('lighthouses ships', 1, 0)).data[0]!.score).toBeCloseTo(cosine, 3);

  // The provider refuses now (its key was revoked): keyword search still answers …
  upstream.embeddings = () => ({ kind: 'error', status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}.` } } });
  const keywords = await sdk.vectorStores.search(store.id, { query: 'pelicans' });
  expect(keywords.data.map((d) => d.filename)).toEqual(['b.txt']);
  // … and a file added meanwhile fails alone, saying which provider, without its key.
  const c = await sdk.vectorStores.files.uploadAndPoll(store.id, await toFile(new TextEncoder().encode('Harbour lanterns.'), 'c.txt'), { pollIntervalMs: 5 });
  expect(c.status).toBe('failed');
  expect(c.last_error?.message).toMatch(/^Embedding the file with lab\/emb failed: Provider 'lab' refused the request \(401\)/);
  expect(c.last_error?.message).not.toContain(KEY);
  expect(JSON.stringify(await local.fileStore!.listStoreFiles(store.id))).not.toContain(KEY);

  // The model behind the name changed (vectors of another length): never mixed into this store.
  upstream.embeddings = (body) => ({ kind: 'json', body: { data: (body.input as string[]).map((t, index) => ({ index, embedding: fakeVector(t, 48) })) } });
  const d = await sdk.vectorStores.files.uploadAndPoll(store.id, await toFile(new TextEncoder().encode('Tide tables.'), 'd.txt'), { pollIntervalMs: 5 });
  expect(d.status).toBe('failed');
  expect(d.last_error?.message).toMatch(/lab\/emb made vectors of 48 dimensions, but this vector store's have 32/);
});
