import { expect, test } from 'vitest';
import { FakeMlcEmbedder } from '../../../test/fakes/fake-embedders';
import { WEBLLM_EMBEDDING_CATALOG, WebLlmEmbedder } from './embedder';
import type { WebGpuSupport } from '../webgpu-support';

const gpu: WebGpuSupport = { usable: true, shaderF16: false, adapter: { vendor: 'x', architecture: 'y', description: 'z' }, limits: { maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 30, maxComputeWorkgroupStorageSize: 32768 } } as unknown as WebGpuSupport;
const entry = WEBLLM_EMBEDDING_CATALOG[0]!;
const signal = new AbortController().signal;

test('loads its model once, frames inputs as web-llm’s example does, answers normalised vectors in input order', async () => {
  const fake = new FakeMlcEmbedder(entry.dimensions);
  let created = 0;
  const embedder = new WebLlmEmbedder(entry, { detectGpu: async () => gpu, createEngine: async () => (created++, fake) });
  const docs = await embedder.embed(['alpha', 'beta gamma'], { kind: 'document', signal });
  const query = await embedder.embed(['alpha'], { kind: 'query', signal });
  expect(created).toBe(1);
  expect(fake.reloads).toEqual([entry.id]);
  expect(fake.inputs).toEqual([['[CLS] alpha [SEP]', '[CLS] beta gamma [SEP]'], ['[CLS] Represent this sentence for searching relevant passages: alpha [SEP]']]);
  expect(docs.vectors).toHaveLength(2);
  for (const v of [...docs.vectors, ...query.vectors]) {
    expect(v).toHaveLength(384);
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
  }
  // In input order although answered reversed: 'alpha' is 5 characters long, 'beta gamma' 10.
  expect(docs.vectors[0]![0]! / docs.vectors[1]![0]!).toBeLessThan(1);
});

test('without usable WebGPU it says so, and tries again next time', async () => {
  const embedder = new WebLlmEmbedder(entry, { detectGpu: async () => ({ usable: false, shaderF16: false, cause: 'no_adapter', reason: 'no GPU here' }) as WebGpuSupport, createEngine: async () => new FakeMlcEmbedder(384) });
  await expect(embedder.embed(['x'], { kind: 'document', signal })).rejects.toMatchObject({ data: { code: 'webgpu_unavailable' } });
});
