import type { AppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it, vi } from 'vitest';
import type { Rendered } from '../../chat/chat-format';
import type { ChatMessage } from '../../chat/chat-message';
import { ApiError } from '../../shared/api-error';
import type { EngineDelta, GenerateRequest, Generation, LoadProgress } from '../../ports/engine';
import { FakeMLCEngine, type FakeReload } from '../../../test/fakes/fake-mlc-engine';
import { MODEL_CATALOG, findCatalogEntry } from './catalog';
import type { WebGpuSupport } from '../webgpu-support';
import { WEBLLM_EMPTY_THINKING, WebLlmEngine, estimateTokens, type WebLlmEngineOptions } from './engine';

const QWEN = 'Qwen3-1.7B-q4f16_1-MLC';
const QWEN_F32 = 'Qwen3-1.7B-q4f32_1-MLC';
const LLAMA = 'Llama-3.2-1B-Instruct-q4f16_1-MLC';
const MIRROR = 'https://mirror.example/models';

const LIMITS = { maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 30, maxComputeWorkgroupStorageSize: 32768, maxStorageBuffersPerShaderStage: 10 };
const gpuWith = (shaderF16: boolean): WebGpuSupport => ({ usable: true, shaderF16, fallbackAdapter: false, adapter: {}, limits: LIMITS });

interface SetupOptions {
  shaderF16?: boolean;
  gpu?: WebGpuSupport;
  cached?: string[];
  quota?: { usage: number; quota: number };
  fetch?: WebLlmEngineOptions['fetch'];
  /** Fakes handed out by createEngine, in order (more are made as needed). */
  fakes?: FakeMLCEngine[];
}

function setup(options: SetupOptions = {}) {
  const fakes = [...(options.fakes ?? [new FakeMLCEngine()])];
  const created: FakeMLCEngine[] = [];
  const progress: LoadProgress[] = [];
  const cached = new Set(options.cached ?? []);
  const storage = {
    estimate: vi.fn(async () => options.quota ?? { usage: 0, quota: 100e9 }),
    persisted: vi.fn(async () => false),
    persist: vi.fn(async () => true),
  };
  const createEngine = vi.fn(async (config: FakeMLCEngine['config']) => {
    const fake = fakes.shift() ?? new FakeMLCEngine();
    fake.config = config;
    created.push(fake);
    return fake;
  });
  const engine = new WebLlmEngine({
    modelBase: MIRROR,
    createEngine,
    detectGpu: async () => options.gpu ?? gpuWith(options.shaderF16 ?? true),
    cacheApi: { hasModelInCache: async (id: string, _config?: AppConfig) => cached.has(id), deleteBuild: async () => {} },
    storage,
    onProgress: (p) => progress.push(p),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const fake = () => created.at(-1)!;
  return { engine, created, createEngine, progress, storage, fake, fakes };
}

const signal = () => new AbortController().signal;

/** A request for the engine; `messages`/`prompt` make up its rendered `input`. */
function request({ messages: givenMessages, prompt: givenPrompt, ...over }: Partial<GenerateRequest> & Partial<Rendered> = {}): GenerateRequest {
  const messages: ChatMessage[] = givenMessages ?? [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: 'Hi' },
  ];
  const prompt = givenPrompt ?? messages.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join('') + '<|im_start|>assistant\n';
  return {
    model: QWEN,
    input: { messages, prompt },
    signal: signal(),
    ...over,
  };
}

async function collect(generation: Generation): Promise<EngineDelta[]> {
  const deltas: EngineDelta[] = [];
  for await (const delta of generation) deltas.push(delta);
  return deltas;
}

const text = (deltas: EngineDelta[]) => deltas.map((d) => d.text).join('');
const tokens = (deltas: EngineDelta[]) => deltas.reduce((n, d) => n + d.tokens, 0);
const named = (name: string, message: string) => Object.assign(new Error(message), { name });

async function loaded(model = QWEN, options: SetupOptions = {}) {
  const s = setup(options);
  await s.engine.ensureLoaded(model, signal());
  return s;
}

describe('WebLlmEngine: catalog', () => {
  it('lists the catalog with sizes of the build this device loads', async () => {
    const { engine } = setup({ shaderF16: false });
    expect(engine.models().map((m) => m.id)).toEqual(MODEL_CATALOG.map((e) => e.id));
    const qwen = findCatalogEntry(MODEL_CATALOG, QWEN)!;
    expect(engine.models().find((m) => m.id === QWEN)).toMatchObject({ chat_format: 'qwen3', vram_bytes: qwen.variants.q4f16.vramBytes, capabilities: { tools: true, reasoning: true } });
    await engine.gpuSupport();
    expect(engine.models().find((m) => m.id === QWEN)?.vram_bytes).toBe(qwen.variants.q4f32.vramBytes);
  });

  it('estimates tokens conservatively', async () => {
    expect(estimateTokens('abcdefg')).toBe(3);
    expect(estimateTokens('你好')).toBe(2);
    expect(estimateTokens('')).toBe(0);
  });

  it('counts the messages web-llm is given (their text and its template markup), not the prompt our format rendered', async () => {
    const { engine } = setup();
    const user = (content: string): Rendered['messages'] => [{ role: 'user', content }];
    // One message and the reply opener: 8 markup tokens each.
    expect(await engine.countTokens(QWEN, { messages: user('abcdefg'), prompt: '' })).toBe(3 + 2 * 8);
    expect(await engine.countTokens(QWEN, { messages: user('你好'), prompt: 'x'.repeat(3000) })).toBe(2 + 2 * 8);
    const long = await engine.countTokens(QWEN, { messages: user('a'.repeat(3000)), prompt: 'short' });
    expect(long).toBe(1000 + 2 * 8);
  });

  it('points web-llm at the mirror', () => {
    const { engine } = setup();
    const record = engine.appConfig.model_list.find((r) => r.model_id === QWEN)!;
    expect(record.model).toBe(`${MIRROR}/${QWEN}/resolve/main/`);
    expect(record.model_lib).toBe(`${MIRROR}/libs/Qwen3-1.7B-q4f16_1_cs1k-webgpu.wasm`);
  });
});

describe('WebLlmEngine: loading', () => {
  it('rejects an id outside the catalog with 404 model_not_found', async () => {
    const { engine, createEngine } = setup();
    await expect(engine.ensureLoaded('gpt-4o', signal())).rejects.toMatchObject({ data: { status: 404, code: 'model_not_found', param: 'model' } });
    expect(createEngine).not.toHaveBeenCalled();
  });

  it('fails with the reason when WebGPU is unusable, before creating an engine', async () => {
    const gpu: WebGpuSupport = { usable: false, shaderF16: false, cause: 'no_adapter', reason: 'no adapter: start Chromium with --enable-unsafe-webgpu' };
    const { engine, createEngine } = setup({ gpu });
    const err = await engine.ensureLoaded(QWEN, signal()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).data).toMatchObject({ status: 500, code: 'webgpu_unavailable' });
    expect((err as ApiError).message).toContain('--enable-unsafe-webgpu');
    expect(createEngine).not.toHaveBeenCalled();
  });

  it('loads the q4f32 build when the adapter lacks shader-f16', async () => {
    const { engine, fake } = await loaded(QWEN, { shaderF16: false });
    expect(fake().calls).toContain(`reload:${QWEN_F32}`);
    expect(engine.loadedModel()).toBe(QWEN);
    expect(fake().config.appConfig?.model_list.some((r) => r.model_id === QWEN_F32)).toBe(true);
  });

  it('reports progress: download with bytes, compile, ready once', async () => {
    const fake = new FakeMLCEngine();
    const reload: FakeReload = {
      reports: [
        { progress: 0, timeElapsed: 0, text: 'Start to fetch params' },
        { progress: 0.5, timeElapsed: 1, text: 'Fetching param cache[1/2]: 500MB fetched. 50% completed, 1 secs elapsed. It can take a while…' },
        { progress: 1, timeElapsed: 2, text: 'Fetching param cache[2/2]: 1000MB fetched. 100% completed, 2 secs elapsed. It can take a while…' },
        { progress: 0.5, timeElapsed: 3, text: 'Loading model from cache[1/2]: 500MB loaded. 50% completed, 3 secs elapsed.' },
        { progress: 1, timeElapsed: 4, text: 'Loading GPU shader modules[10/10]: 100% completed, 4 secs elapsed.' },
      ],
    };
    fake.reloads.push(reload);
    const { engine, progress } = setup({ fakes: [fake] });
    await engine.ensureLoaded(QWEN, signal());
    expect(progress.map((p) => p.phase)).toEqual(['download', 'download', 'download', 'download', 'compile', 'compile', 'ready']);
    expect(progress[2]).toMatchObject({ model: QWEN, loadedBytes: 500 * 1024 * 1024, totalBytes: 1000 * 1024 * 1024, progress: 0.5 });
    expect(progress.map((p) => p.progress)).toEqual([0, 0, 0.5, 1, 0.25, 1, 1]);
    expect(engine.loadReports.latest()).toMatchObject({ phase: 'ready', model: QWEN });
  });

  it('asks for persistent storage before downloading, not for a cached model', async () => {
    const first = await loaded(QWEN);
    expect(first.storage.persist).toHaveBeenCalledTimes(1);
    const second = await loaded(QWEN, { cached: [QWEN] });
    expect(second.storage.persist).not.toHaveBeenCalled();
  });

  it('fails with quota_exceeded (needed vs free) before downloading what does not fit', async () => {
    const { engine, created } = setup({ quota: { usage: 4.9e9, quota: 5e9 } });
    const err = (await engine.ensureLoaded(QWEN, signal()).catch((e: unknown) => e)) as ApiError;
    expect(err.data.code).toBe('quota_exceeded');
    expect(err.message).toMatch(/needs about 983 MB and this site can store only 100 MB more/);
    expect(created[0]?.calls.filter((c) => c.startsWith('reload'))).toEqual([]);
  });

  it('unloads the previous model before loading another, and not again for the loaded one', async () => {
    const { engine, fake } = await loaded(QWEN);
    await engine.ensureLoaded(LLAMA, signal());
    await engine.ensureLoaded(LLAMA, signal());
    expect(fake().calls).toEqual([`reload:${QWEN}`, 'unload', `reload:${LLAMA}`]);
    expect(engine.loadedModel()).toBe(LLAMA);
  });

  it('loads once for concurrent requests of the same model', async () => {
    const { engine, fake } = setup();
    await Promise.all([engine.ensureLoaded(QWEN, signal()), engine.ensureLoaded(QWEN, signal())]);
    expect(fake().calls.filter((c) => c.startsWith('reload'))).toEqual([`reload:${QWEN}`]);
  });

  it('abort: rejects at once, unloads what the reload leaves, and a later load works', async () => {
    const fake = new FakeMLCEngine();
    fake.reloads.push({ gate: new Promise<void>(() => {}) });
    const { engine } = setup({ fakes: [fake] });
    const controller = new AbortController();
    const pending = engine.ensureLoaded(QWEN, controller.signal);
    await vi.waitFor(() => expect(fake.calls).toContain(`reload:${QWEN}`));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await engine.ensureLoaded(QWEN, signal());
    expect(fake.calls).toEqual([`reload:${QWEN}`, 'unload', 'unload', `reload:${QWEN}`]);
    expect(engine.loadedModel()).toBe(QWEN);
  });

  it('out of GPU memory (device lost while loading): gpu_out_of_memory, a fresh engine next time', async () => {
    const fake = new FakeMLCEngine();
    fake.reloads.push({ error: named('DeviceLostError', 'The WebGPU device was lost while loading the model.') });
    const { engine, createEngine } = setup({ fakes: [fake] });
    const err = (await engine.ensureLoaded('Qwen3-4B-q4f16_1-MLC', signal()).catch((e: unknown) => e)) as ApiError;
    expect(err.data).toMatchObject({ status: 500, code: 'gpu_out_of_memory' });
    expect(err.message).toMatch(/needs about 3\.\d GB of GPU memory/);
    expect(err.message).toContain(`such as ${QWEN}`);
    expect(engine.loadedModel()).toBeNull();
    await engine.ensureLoaded(QWEN, signal());
    expect(createEngine).toHaveBeenCalledTimes(2);
  });

  it('download failure: finds and names the missing file on the mirror', async () => {
    const fake = new FakeMLCEngine();
    fake.reloads.push({ error: new TypeError("Failed to execute 'add' on 'Cache': Request failed") });
    const fetchFn = vi.fn(async (url: string) => new Response('', { status: url.endsWith('mlc-chat-config.json') ? 404 : 200 }));
    const { engine } = setup({ fakes: [fake], fetch: fetchFn });
    const err = (await engine.ensureLoaded(QWEN, signal()).catch((e: unknown) => e)) as ApiError;
    expect(err.data.code).toBe('model_download_failed');
    expect(err.message).toContain(`${MIRROR}/${QWEN}/resolve/main/mlc-chat-config.json answered HTTP 404`);
  });

  it('quota exceeded during the download: quota_exceeded with the storage numbers', async () => {
    const fake = new FakeMLCEngine();
    fake.reloads.push({ error: new DOMException('The quota has been exceeded.', 'QuotaExceededError') });
    const { engine } = setup({ fakes: [fake], quota: { usage: 1e9, quota: 3e9 } });
    const err = (await engine.ensureLoaded(QWEN, signal()).catch((e: unknown) => e)) as ApiError;
    expect(err.data.code).toBe('quota_exceeded');
    expect(err.message).toContain('only 2.0 GB more (1.0 GB of 3.0 GB in use)');
  });

  it("web-llm's WebGPU errors: webgpu_unavailable", async () => {
    const fake = new FakeMLCEngine();
    fake.reloads.push({ error: named('WebGPUNotAvailableError', 'WebGPU is not supported in your current environment.') });
    const { engine } = setup({ fakes: [fake] });
    await expect(engine.ensureLoaded(QWEN, signal())).rejects.toMatchObject({ data: { code: 'webgpu_unavailable' } });
  });
});

describe('WebLlmEngine: generating', () => {
  it('streams deltas with token counts and sends a plain chat completion request', async () => {
    const { engine, fake } = await loaded();
    fake().replies.push({ tokens: ['Hel', 'lo', ' world'], promptTokens: 12, ttft: 0.2 });
    const req = request({ maxOutputTokens: 100, temperature: 0.7, topP: 0.9 });
    const generation = engine.generate(req);
    expect(await generation.usage).toEqual({ inputTokens: await engine.countTokens(QWEN, req.input), cachedTokens: 0 });
    const deltas = await collect(generation);
    expect(text(deltas)).toBe('Hello world');
    expect(deltas.slice(0, 3).map((d) => d.tokens)).toEqual([1, 1, 1]);
    // The stop token is sampled and counted (usage.completion_tokens), with no text.
    expect(tokens(deltas)).toBe(4);
    expect(generation.finishReason()).toBe('stop');
    expect(await generation.finalUsage).toEqual({
      inputTokens: 12,
      cachedTokens: 0,
      timings: { prefillTokens: 12, timeToFirstTokenMs: 200, prefillTokensPerSecond: 1000, decodeTokensPerSecond: 50 },
    });
    expect(fake().requests[0]).toEqual({
      model: QWEN,
      messages: req.input.messages,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 100,
      temperature: 0.7,
      top_p: 0.9,
    });
  });

  it('loads the model on demand', async () => {
    const { engine } = setup();
    const deltas = await collect(engine.generate(request({ model: LLAMA })));
    expect(text(deltas)).toBe('ok');
    expect(engine.loadedModel()).toBe(LLAMA);
  });

  it('an unknown model rejects usage with model_not_found', async () => {
    const { engine } = setup();
    await expect(engine.generate(request({ model: 'nope' })).usage).rejects.toMatchObject({ data: { code: 'model_not_found' } });
  });

  it('maxOutputTokens → max_tokens; finish length', async () => {
    const { engine, fake } = await loaded();
    fake().replies.push({ tokens: ['a', 'b', 'c', 'd'] });
    const generation = engine.generate(request({ maxOutputTokens: 2 }));
    await generation.usage;
    const deltas = await collect(generation);
    expect(text(deltas)).toBe('ab');
    expect(tokens(deltas)).toBe(2);
    expect(generation.finishReason()).toBe('length');
  });

  it('abort: interruptGenerate, the iteration ends within one token', async () => {
    const { engine, fake } = await loaded();
    fake().replies.push({ tokens: Array.from({ length: 50 }, (_, i) => `t${i} `), tokenMs: 300 });
    const controller = new AbortController();
    const generation = engine.generate(request({ signal: controller.signal }));
    await generation.usage;
    const iterator = generation[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ text: 't0 ', tokens: 1 });
    const next = iterator.next(); // waiting for a decode step that takes 300 ms
    const started = Date.now();
    controller.abort();
    expect(await next).toEqual({ done: true, value: undefined });
    expect(Date.now() - started).toBeLessThan(150);
    expect(generation.finishReason()).toBe('abort');
    expect(fake().calls).toContain('interrupt');
    await generation.finalUsage;
    // web-llm finished the decode step in flight and stopped: one token past the one we saw.
    expect(fake().lastCompletionTokens).toBeLessThanOrEqual(2);
    // Its lock is free: the next generation runs.
    fake().replies.push({ tokens: ['next'] });
    expect(text(await collect(engine.generate(request())))).toBe('next');
  });

  it('an abort after a generation ended does not interrupt the next one', async () => {
    const { engine, fake } = await loaded();
    const controller = new AbortController();
    await collect(engine.generate(request({ signal: controller.signal })));
    fake().replies.push({ tokens: ['a', 'b', 'c'], tokenMs: 5 });
    const second = engine.generate(request());
    await second.usage;
    controller.abort();
    expect(text(await collect(second))).toBe('abc');
    expect(fake().calls).not.toContain('interrupt');
  });

  it('abort during prefill: usage resolves, nothing is yielded', async () => {
    const { engine, fake } = await loaded();
    fake().replies.push({ tokens: ['a', 'b'], prefillMs: 30 });
    const controller = new AbortController();
    const generation = engine.generate(request({ signal: controller.signal }));
    controller.abort();
    await generation.usage;
    expect(await collect(generation)).toEqual([]);
    expect(generation.finishReason()).toBe('abort');
    await generation.finalUsage;
    expect(fake().calls).toContain('interrupt');
  });

  it('a JSON schema becomes response_format json_object with the schema as a string', async () => {
    const { engine, fake } = await loaded(LLAMA);
    const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
    await collect(engine.generate(request({ model: LLAMA, jsonSchema: schema })));
    await collect(engine.generate(request({ model: LLAMA, jsonSchema: {} })));
    expect(fake().requests[0]?.response_format).toEqual({ type: 'json_object', schema: JSON.stringify(schema) });
    expect(fake().requests[1]?.response_format).toEqual({ type: 'json_object', schema: '{"type":"object"}' });
    expect(fake().requests[0]?.extra_body).toBeUndefined();
  });

  it('a custom tool grammar becomes response_format grammar: the call grammar printed as xgrammar EBNF', async () => {
    const { engine, fake } = await loaded(LLAMA);
    const outputGrammar = { rules: { root: { kind: 'lit' as const, text: 'ok' } }, root: 'root' };
    await collect(engine.generate(request({ model: LLAMA, outputGrammar })));
    expect(fake().requests[0]?.response_format).toEqual({ type: 'grammar', grammar: 'root ::= "ok"\n' });
  });

  it('enable_thinking only for reasoning models; off under a JSON schema', async () => {
    const { engine, fake } = await loaded(QWEN);
    await collect(engine.generate(request({ enableThinking: false })));
    await collect(engine.generate(request({ enableThinking: true })));
    await collect(engine.generate(request({ enableThinking: true, jsonSchema: {} })));
    await collect(engine.generate(request()));
    expect(fake().requests.map((r) => r.extra_body)).toEqual([{ enable_thinking: false }, { enable_thinking: true }, { enable_thinking: false }, undefined]);
    await collect(engine.generate(request({ model: LLAMA, enableThinking: false })));
    expect(fake().requests.at(-1)?.extra_body).toBeUndefined();
  });

  it('thinking off: the empty think block web-llm streams before the reply is dropped', async () => {
    const { engine, fake } = await loaded(QWEN);
    fake().replies.push({ tokens: ['Sure', '.'], promptTokens: 15 });
    const turn1: ChatMessage[] = [{ role: 'user', content: 'Say sure.' }];
    const first = engine.generate(request({ messages: turn1, enableThinking: false }));
    const deltas = await collect(first);
    expect(deltas.map((d) => d.text)).toEqual(['Sure', '.', '']); // the last: the stop token
    expect(tokens(deltas)).toBe(3);
    // web-llm keeps the block in the reply it remembers: a history that repeats it reuses the cache.
    const raw = await fake().getMessage();
    expect(raw).toBe(`${WEBLLM_EMPTY_THINKING}Sure.`);
    const second = engine.generate(request({ messages: [...turn1, { role: 'assistant', content: raw }, { role: 'user', content: 'Again.' }], enableThinking: false }));
    expect((await second.usage).cachedTokens).toBe(17);
    await collect(second);
  });

  it("sends tool results as user messages unless the template has a tool role; never uses web-llm's tools", async () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: '<tool_call>{"name":"w","arguments":{}}</tool_call>' },
      { role: 'tool', content: '<tool_response>\n18 °C\n</tool_response>' },
    ];
    const { engine, fake } = await loaded(QWEN);
    await collect(engine.generate(request({ messages })));
    expect(fake().requests[0]?.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    await collect(engine.generate(request({ model: LLAMA, messages })));
    expect(fake().requests[1]?.messages.at(-1)).toEqual({ role: 'tool', content: messages[3]!.content, tool_call_id: '' });
    for (const r of fake().requests) expect(r.tools).toBeUndefined();
  });

  it('falls back to user messages when a template rejects the tool role', async () => {
    const { engine, fake } = await loaded(LLAMA);
    fake().replies.push({ tokens: [], prefillError: new Error('Role is not supported: tool') }, { tokens: ['fine'] });
    const messages: ChatMessage[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '{"name":"f","parameters":{}}' },
      { role: 'tool', content: '"42"' },
    ];
    expect(text(await collect(engine.generate(request({ model: LLAMA, messages }))))).toBe('fine');
    expect(fake().requests.map((r) => r.messages.at(-1)?.role)).toEqual(['tool', 'user']);
  });

  it('turns a later system message into a user message (web-llm takes one, first)', async () => {
    const { engine, fake } = await loaded();
    await collect(engine.generate(request({ messages: [{ role: 'user', content: 'a' }, { role: 'system', content: 'b' }, { role: 'user', content: 'c' }] })));
    expect(fake().requests[0]?.messages.map((m) => m.role)).toEqual(['user', 'user', 'user']);
  });

  it('stop sequences: a partial stop string is held back, dropped when the stop completes', async () => {
    const { engine, fake } = await loaded();
    fake().replies.push({ tokens: ['Hello', ' Obs', 'ervation:', ' more'] });
    const deltas = await collect(engine.generate(request({ stop: ['Observation:'] })));
    expect(text(deltas)).toBe('Hello ');
    expect(tokens(deltas)).toBe(3);
    expect(fake().requests[0]?.stop).toEqual(['Observation:']);
  });

  it('logprobs: asks web-llm for them (at least one alternative) and trims to what was asked; none for the stop token or the dropped think block', async () => {
    const { engine, fake } = await loaded(QWEN);
    fake().replies.push({ tokens: ['Sure', '.'] });
    const deltas = await collect(engine.generate(request({ topLogprobs: 0, enableThinking: false })));
    expect(fake().requests[0]).toMatchObject({ logprobs: true, top_logprobs: 1 });
    expect(deltas.map((d) => d.logprobs)).toEqual([
      [{ token: 'Sure', logprob: -0.25, bytes: [...new TextEncoder().encode('Sure')], top_logprobs: [] }],
      [{ token: '.', logprob: -0.5, bytes: [46], top_logprobs: [] }],
      [],
    ]);
    fake().replies.push({ tokens: ['Hi', ' Obs', 'ervation'] });
    const held = await collect(engine.generate(request({ topLogprobs: 2, stop: ['Observation:'] })));
    expect(fake().requests[1]).toMatchObject({ logprobs: true, top_logprobs: 2 });
    // 'Obs' was held back as a possible stop string: the token ' Obs' goes with the ' ' released, 'ervation' with the rest.
    expect(held.map((d) => [d.text, d.logprobs?.map((l) => l.token)])).toEqual([
      ['Hi', ['Hi']],
      [' ', [' Obs']],
      ['Observation', ['ervation']],
    ]);
    expect(held[0]!.logprobs![0]!.top_logprobs.map((t) => t.token)).toEqual(['Hi', 'alt 1']);
    fake().replies.push({ tokens: ['ok'] });
    await collect(engine.generate(request()));
    expect(fake().requests[2]).not.toHaveProperty('logprobs');
    expect(engine.reportsLogprobs).toBe(true);
    expect(engine.maxTopLogprobs).toBe(5);
  });

  it('stop sequences: held text is released when the model stops on its own', async () => {
    const { engine, fake } = await loaded();
    fake().replies.push({ tokens: ['Hi', ' Obs'] });
    const deltas = await collect(engine.generate(request({ stop: ['Observation:'] })));
    expect(deltas.map((d) => d.text)).toEqual(['Hi', ' ', 'Obs']);
    expect(tokens(deltas)).toBe(3);
  });

  it('KV-cache reuse: a continuation reports the previous turn as cached tokens', async () => {
    const { engine, fake } = await loaded();
    const turn1: ChatMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'Name a color.' },
    ];
    fake().replies.push({ tokens: ['<think>\n\n</think>\n\n', 'Blue', '.'], promptTokens: 20 });
    const first = engine.generate(request({ messages: turn1 }));
    const output = text(await collect(first));
    expect(await first.finalUsage).toMatchObject({ inputTokens: 20, cachedTokens: 0 });

    // Turn 2 repeats the reply exactly as the model wrote it: web-llm prefills only the new message.
    const turn2: ChatMessage[] = [...turn1, { role: 'assistant', content: output }, { role: 'user', content: 'Another.' }];
    fake().replies.push({ tokens: ['Red', '.'], promptTokens: 9, ttft: 0.01 });
    const second = engine.generate(request({ messages: turn2 }));
    // KV after turn 1: 20 prompt + 4 sampled tokens (3 + stop) − the last, never fed back.
    expect((await second.usage).cachedTokens).toBe(23);
    await collect(second);
    expect(await second.finalUsage).toMatchObject({ inputTokens: 32, cachedTokens: 23, timings: { prefillTokens: 9, timeToFirstTokenMs: 10 } });

    // A history that differs from what the model wrote (reasoning stripped) is prefilled again.
    const stripped: ChatMessage[] = [...turn2.slice(0, 3), { role: 'assistant', content: 'Red.' }, { role: 'user', content: 'More.' }];
    stripped[2] = { role: 'assistant', content: 'Blue.' };
    const third = engine.generate(request({ messages: stripped }));
    expect((await third.usage).cachedTokens).toBe(0);
    await collect(third);
  });

  it('KV-cache reuse: none after a reply cut by max tokens', async () => {
    const { engine, fake } = await loaded();
    const turn1: ChatMessage[] = [{ role: 'user', content: 'Count.' }];
    fake().replies.push({ tokens: ['1', '2', '3'] });
    const first = engine.generate(request({ messages: turn1, maxOutputTokens: 2 }));
    const output = text(await collect(first));
    const second = engine.generate(request({ messages: [...turn1, { role: 'assistant', content: output }, { role: 'user', content: 'Go on.' }] }));
    expect((await second.usage).cachedTokens).toBe(0);
    await collect(second);
  });

  it('context overflow at prefill: usage rejects with 400; the model stays loaded', async () => {
    const { engine, fake } = await loaded();
    fake().replies.push({
      tokens: [],
      prefillError: named('ContextWindowSizeExceededError', 'Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096'),
    });
    const generation = engine.generate(request());
    await expect(generation.usage).rejects.toMatchObject({ data: { status: 400, code: 'context_length_exceeded' } });
    await expect(generation.finalUsage).rejects.toBeInstanceOf(ApiError);
    expect(engine.loadedModel()).toBe(QWEN);
    expect(fake().calls).not.toContain('unload');
  });

  it('device lost mid-stream: the response fails with device_lost, the next request reloads on a fresh engine', async () => {
    const { engine, fake, createEngine } = await loaded();
    fake().replies.push({ tokens: ['a', 'b', 'c'], failAt: { index: 2, error: new Error('Device was lost. This can happen due to insufficient memory.') } });
    const generation = engine.generate(request());
    const seen: string[] = [];
    const err = await (async () => {
      for await (const d of generation) seen.push(d.text);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a', 'b']);
    expect((err as ApiError).data).toMatchObject({ status: 500, code: 'device_lost' });
    expect(engine.loadedModel()).toBeNull();
    await collect(engine.generate(request()));
    expect(createEngine).toHaveBeenCalledTimes(2);
    expect(engine.loadedModel()).toBe(QWEN);
  });

  it('a generation nobody iterates is abandoned so the next one can run', async () => {
    const { engine, fake } = await loaded();
    fake().replies.push({ tokens: Array.from({ length: 20 }, () => 'x'), tokenMs: 5 }, { tokens: ['second'] });
    const first = engine.generate(request());
    await first.usage;
    expect(text(await collect(engine.generate(request())))).toBe('second');
    expect(fake().calls).toContain('interrupt');
    expect(await collect(first)).toEqual([]);
    expect(first.finishReason()).toBe('abort');
  });

  it('unload frees the GPU', async () => {
    const { engine, fake } = await loaded();
    await engine.unload();
    expect(engine.loadedModel()).toBeNull();
    expect(fake().calls.at(-1)).toBe('unload');
  });
});
