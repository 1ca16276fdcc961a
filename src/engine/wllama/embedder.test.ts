import { expect, test } from 'vitest';
import { FakeWllamaEmbedder } from '../../../test/fakes/fake-embedders';
import { GGUF_EMBEDDING_CATALOG, GGUF_EMBEDDING_TEST_CATALOG, WllamaEmbedder } from './embedder';

const signal = new AbortController().signal;

test('loads the GGUF as an embedding context: embeddings on, its pooling, a batch as long as the context', async () => {
  const entry = GGUF_EMBEDDING_CATALOG[0]!;
  const fake = new FakeWllamaEmbedder(entry.dimensions);
  const embedder = new WllamaEmbedder(entry, { createWllama: () => fake, modelBase: 'http://mirror.test/models/' });
  const docs = await embedder.embed(['one', 'two'], { kind: 'document', signal });
  await embedder.embed(['question'], { kind: 'query', signal });
  expect(fake.loads).toHaveLength(1);
  expect(fake.loads[0]!.url).toBe('http://mirror.test/models/bge-small-en-v1.5-q8_0.gguf');
  expect(fake.loads[0]!.params).toMatchObject({ embeddings: true, pooling_type: 'cls', n_ctx: 512, n_batch: 512, n_ubatch: 512 });
  expect(fake.inputs).toEqual([['one', 'two'], ['Represent this sentence for searching relevant passages: question']]);
  expect(docs.vectors.map((v) => v.length)).toEqual([384, 384]);
  expect(docs.promptTokens).toBe(6);
  expect(embedder.info).toMatchObject({ id: 'bge-small-en-v1.5-Q8_0-GGUF', engine: 'wllama', dimensions: 384, max_input_tokens: 510 });
});

test('a file that is not a model is refused and the engine let go; the next call loads again', async () => {
  const entry = GGUF_EMBEDDING_TEST_CATALOG[0]!;
  const broken = new FakeWllamaEmbedder(64, 0);
  const good = new FakeWllamaEmbedder(64);
  const made = [broken, good];
  const embedder = new WllamaEmbedder(entry, { createWllama: () => made.shift()!, modelBase: 'http://mirror.test/' });
  await expect(embedder.embed(['x'], { kind: 'document', signal })).rejects.toThrow(/is not a valid GGUF model/);
  expect(broken.exited).toBe(true);
  expect(broken.deleted).toEqual(['http://mirror.test/test-tiny-llama.gguf']);
  expect((await embedder.embed(['x'], { kind: 'document', signal })).vectors[0]).toHaveLength(64);
});

test('an input over the model’s window is cut and tried again when the caller allows it, else a 400', async () => {
  const entry = GGUF_EMBEDDING_TEST_CATALOG[0]!;
  const fake = new FakeWllamaEmbedder(64, 365, 100);
  const embedder = new WllamaEmbedder(entry, { createWllama: () => fake, modelBase: 'http://mirror.test/' });
  const long = 'x'.repeat(250);
  const cut = await embedder.embed([long, 'short'], { kind: 'document', signal, truncate: true });
  expect(cut.vectors).toHaveLength(2);
  expect(fake.inputs.map((batch) => batch[0]!.length)).toEqual([250, 150, 90]);
  await expect(embedder.embed([long], { kind: 'document', signal })).rejects.toMatchObject({ data: { status: 400, code: 'context_length_exceeded' } });
});
