/**
 * `POST /v1/embeddings` through the real `openai` SDK (which asks for base64 by default) and
 * LangChain's `OpenAIEmbeddings`, over `test-embedding`; hybrid file search over stores that
 * each keep the embedding model they were made with.
 */
import { expect, test } from 'vitest';
import { toFile } from 'openai';
import { OpenAIEmbeddings } from '@langchain/openai';
import { clientsWithFiles, failed } from '../support/local-client';
import { TestEmbedder, testEmbedding } from '../../src/engine/test-embedder';
import { GGUF_EMBEDDING_TEST_CATALOG, WllamaEmbedder } from '../../src/engine/wllama';
import { FakeWllamaEmbedder } from '../fakes/fake-embedders';

const client = clientsWithFiles();

test('the SDK (base64 on the wire), float, dimensions, usage; /v1/models says which models embed', async () => {
  const local = await client();
  const sdk = local.client;
  const byDefault = await sdk.embeddings.create({ model: 'test-embedding', input: ['red apples', 'green apples'] });
  expect(byDefault.data.map((d) => d.index)).toEqual([0, 1]);
  expect(byDefault.data[0]!.embedding).toHaveLength(384);
  // The SDK decoded base64 little-endian float32 into the same numbers.
  expect(byDefault.data[0]!.embedding.map((x) => Math.round(x * 1e5))).toEqual(Array.from(testEmbedding('red apples')).map((x) => Math.round(x * 1e5)));
  expect(byDefault.usage).toEqual({ prompt_tokens: 6, total_tokens: 6 });
  const raw = (await (await local.http('/v1/embeddings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'test-embedding', input: 'x', encoding_format: 'base64' }) })).json()) as { data: Array<{ embedding: unknown }> };
  expect(typeof raw.data[0]!.embedding).toBe('string');
  const floats = await sdk.embeddings.create({ model: 'test-embedding', input: 'red apples', encoding_format: 'float', dimensions: 64 });
  expect(floats.data[0]!.embedding).toHaveLength(64);
  expect(Math.hypot(...floats.data[0]!.embedding)).toBeCloseTo(1, 5);

  const models = (await sdk.models.list()).data as unknown as Array<{ id: string; type: string; dimensions?: number }>;
  expect(models.find((m) => m.id === 'test-embedding')).toMatchObject({ type: 'embedding', dimensions: 384 });
  expect(models.find((m) => m.id === 'test-scripted')).toMatchObject({ type: 'chat' });
});

test('errors: a chat model, an empty input, token arrays, dimensions a model cannot give', async () => {
  const { client: sdk } = await client();
  const chat = await failed(sdk.embeddings.create({ model: 'test-scripted', input: 'x' }));
  expect(chat.status).toBe(404);
  expect(chat.message).toMatch(/does not make embeddings.*test-embedding/);
  expect((await failed(sdk.embeddings.create({ model: 'test-embedding', input: '' }))).status).toBe(400);
  expect((await failed(sdk.embeddings.create({ model: 'test-embedding', input: [1, 2, 3] }))).param).toBe('input');
  expect((await failed(sdk.embeddings.create({ model: 'test-embedding', input: 'x', dimensions: 1000 }))).param).toBe('dimensions');
});

test('LangChain OpenAIEmbeddings embeds documents and a query against /v1', async () => {
  const local = await client();
  const embeddings = new OpenAIEmbeddings({ model: 'test-embedding', apiKey: 'local', configuration: { baseURL: 'http://local.test/v1', fetch: (url: RequestInfo | URL, init?: RequestInit) => local.http(new URL(String(url)).pathname, init) } });
  const docs = await embeddings.embedDocuments(['lighthouse at dawn', 'pelicans in spring']);
  const query = await embeddings.embedQuery('lighthouse');
  expect(docs.map((d) => d.length)).toEqual([384, 384]);
  const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
  expect(cos(query, docs[0]!)).toBeGreaterThan(cos(query, docs[1]!));
});

test('hybrid search: a store embeds with the model set when it was made; each store is searched with its own model, never mixed', async () => {
  const tiny = new FakeWllamaEmbedder(64);
  const local = await client({ files: { embeddingModel: 'test-embedding' }, server: { embedders: [new TestEmbedder(), new WllamaEmbedder(GGUF_EMBEDDING_TEST_CATALOG[0]!, { createWllama: () => tiny, modelBase: 'http://m.test/' })] } });
  const sdk = local.client;
  const a = await sdk.vectorStores.create({ name: 'hashed' });
  await sdk.vectorStores.files.uploadAndPoll(a.id, await toFile(new TextEncoder().encode('Lighthouses guide ships at night.'), 'a.txt'), { pollIntervalMs: 5 });
  const hit = await sdk.vectorStores.search(a.id, { query: 'lighthouses ships' });
  // Ranked first by keywords and by embedding: the fused score is 1.
  expect(hit.data[0]).toMatchObject({ filename: 'a.txt', score: 1 });
  // The vector-store search's ranking_options also take the tool's hybrid_search weights (the SDK's type for this route lacks them).
  const weighted = async (embedding_weight: number, text_weight: number) =>
    (await (
      await local.http(`/v1/vector_stores/${a.id}/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'lighthouses ships', ranking_options: { hybrid_search: { embedding_weight, text_weight } } }),
      })
    ).json()) as { data: Array<{ score: number }> };
  const textOnly = await weighted(0, 1);
  expect(textOnly.data[0]!.score).toBeLessThan(1);
  const embeddingOnly = await weighted(1, 0);
  expect(embeddingOnly.data[0]!.score).toBeCloseTo(Array.from(testEmbedding('lighthouses ships')).reduce((s, x, i) => s + x * testEmbedding('Lighthouses guide ships at night.')[i]!, 0), 3);
  expect(tiny.inputs).toEqual([]);
  await local.server.close();

  // The same origin later, with another embedding model: a new store uses it; the old one keeps its own.
  const again = await client({ dbName: local.dbName, files: { embeddingModel: 'test-tiny-embed' }, server: { embedders: [new TestEmbedder(), new WllamaEmbedder(GGUF_EMBEDDING_TEST_CATALOG[0]!, { createWllama: () => tiny, modelBase: 'http://m.test/' })] } });
  const b = await again.client.vectorStores.create({ name: 'tiny' });
  await again.client.vectorStores.files.uploadAndPoll(b.id, await toFile(new TextEncoder().encode('Lanterns light the harbour.'), 'b.txt'), { pollIntervalMs: 5 });
  expect(tiny.inputs).toEqual([['Lanterns light the harbour.']]);
  const response = await again.client.responses.create({
    model: 'test-scripted',
    input: JSON.stringify({ script: ['<tool_call>{"name":"file_search","arguments":{"queries":["lighthouses ships harbour"]}}</tool_call>', 'Done.'] }),
    tools: [{ type: 'file_search', vector_store_ids: [a.id, b.id] }],
    include: ['file_search_call.results'],
  });
  const search = response.output[0];
  if (search?.type !== 'file_search_call') throw new Error('no search');
  expect(new Set(search.results!.map((r) => r.filename))).toEqual(new Set(['a.txt', 'b.txt']));
  // The tiny model embedded its own store's chunks and the query for that store only.
  expect(tiny.inputs).toEqual([['Lanterns light the harbour.'], ['lighthouses ships harbour']]);
});
