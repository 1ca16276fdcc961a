import { describe, expect, it } from 'vitest';
import { findUnreachableFile, modelFilesBase } from './download-probe';

const BASE = 'https://mirror.example/models/M-q4f16_1-MLC/resolve/main/';
const record = { model: BASE, model_lib: 'https://mirror.example/models/libs/M-q4f16_1_cs1k-webgpu.wasm' };

function mirror(files: Record<string, string | number>, options: { noHead?: boolean } = {}) {
  const requests: string[] = [];
  const fetchFn = async (url: string, init?: RequestInit): Promise<Response> => {
    const method = init?.method ?? 'GET';
    requests.push(`${method} ${url}`);
    if (url.startsWith('https://offline.example/')) throw new TypeError('Failed to fetch');
    if (method === 'HEAD' && options.noHead) return new Response(null, { status: 405 });
    const file = files[url];
    if (file === undefined) return new Response('not found', { status: 404 });
    if (typeof file === 'number') return new Response(null, { status: file });
    return new Response(method === 'HEAD' ? null : file, { status: 200 });
  };
  return { fetchFn, requests };
}

const complete = {
  [`${BASE}mlc-chat-config.json`]: JSON.stringify({ tokenizer_files: ['tokenizer.json', 'vocab.json'] }),
  [record.model_lib]: 'wasm',
  [`${BASE}tokenizer.json`]: '{}',
  [`${BASE}tensor-cache.json`]: JSON.stringify({ records: [1, 2, 3, 4, 5].map((i) => ({ dataPath: `params_shard_${i}.bin` })) }),
  ...Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`${BASE}params_shard_${i}.bin`, 'x'])),
};

describe('findUnreachableFile', () => {
  it('returns null when every file answers', async () => {
    const { fetchFn, requests } = mirror(complete);
    expect(await findUnreachableFile(record, fetchFn)).toBeNull();
    expect(requests).toContain(`HEAD ${BASE}params_shard_5.bin`);
  });

  it('names a missing weight shard', async () => {
    const { fetchFn } = mirror({ ...complete, [`${BASE}params_shard_4.bin`]: 404 });
    expect(await findUnreachableFile(record, fetchFn)).toEqual({ url: `${BASE}params_shard_4.bin`, status: 404, problem: 'HTTP 404' });
  });

  it('names a missing model library and an unreadable config', async () => {
    const noLib = { ...complete };
    delete noLib[record.model_lib];
    expect((await findUnreachableFile(record, mirror(noLib).fetchFn))?.url).toBe(record.model_lib);
    const badConfig = { ...complete, [`${BASE}mlc-chat-config.json`]: '<html>' };
    expect(await findUnreachableFile(record, mirror(badConfig).fetchFn)).toEqual({ url: `${BASE}mlc-chat-config.json`, problem: 'not valid JSON' });
  });

  it('reports an unreachable server as a network error', async () => {
    const problem = await findUnreachableFile({ model: 'https://offline.example/M', model_lib: 'https://offline.example/l.wasm' }, mirror({}).fetchFn);
    expect(problem?.url).toBe('https://offline.example/M/resolve/main/mlc-chat-config.json');
    expect(problem?.problem).toMatch(/network error/);
  });

  it('falls back to GET when HEAD is not allowed', async () => {
    const { fetchFn, requests } = mirror(complete, { noHead: true });
    expect(await findUnreachableFile(record, fetchFn)).toBeNull();
    expect(requests).toContain(`GET ${BASE}params_shard_1.bin`);
  });

  it("resolves a model URL like web-llm's cleanModelUrl", () => {
    expect(modelFilesBase('https://huggingface.co/mlc-ai/M')).toBe('https://huggingface.co/mlc-ai/M/resolve/main/');
    expect(modelFilesBase('https://huggingface.co/mlc-ai/M/resolve/v1/')).toBe('https://huggingface.co/mlc-ai/M/resolve/v1/');
  });
});
