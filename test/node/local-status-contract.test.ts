/**
 * What the server sends on `/v1/local/*` fits the protocol's contract, through the real
 * stack: `createResponsesServer(...).fetch` over the runtime's `RuntimeModelManager`, the
 * browser device status and both engines' model parts (web-llm over a fake MLC engine,
 * wllama over a fake wllama: fakes only at the engines' library ports).
 *
 * The parsed value must equal the JSON: a field the server sends that the contract does not
 * name is drift too (the UI's parse would drop it silently).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { chatFormats } from '../../src/chat/chat-formats';
import { BrowserDeviceStatus } from '../../src/engine/device-status';
import { GGUF_CATALOG, GGUF_TEST_CATALOG } from '../../src/engine/wllama/gguf-catalog';
import { ScriptedEngine } from '../../src/engine/scripted-engine';
import type { WebGpuSupport } from '../../src/engine/webgpu-support';
import { WebLlmEngine } from '../../src/engine/webllm/engine';
import { WebLlmModels } from '../../src/engine/webllm/models';
import { WllamaEngine } from '../../src/engine/wllama/engine';
import { WllamaModels } from '../../src/engine/wllama/models';
import { LoadEvent, LocalStatus } from '../../src/protocol/local-status';
import { readSse } from '../../src/protocol/sse';
import { createResponsesServer } from '../../src/server/responses-server';
import { RuntimeModelManager } from '../../src/runtime/runtime-model-manager';
import { openIdbStore } from '../../src/store/idb-store';
import { FakeMLCEngine } from '../fakes/fake-mlc-engine';
import { FakeWllama, FakeWllamaCache, type FakeLoadScript } from '../fakes/fake-wllama';

const LIMITS = { maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 30, maxComputeWorkgroupStorageSize: 32768, maxStorageBuffersPerShaderStage: 10 };
const swiftShader: WebGpuSupport = { usable: true, shaderF16: false, fallbackAdapter: true, adapter: { vendor: 'google', architecture: 'swiftshader' }, limits: LIMITS };
const noAdapter: WebGpuSupport = { usable: false, shaderF16: false, cause: 'no_adapter', reason: 'WebGPU is present but no GPU adapter is available.' };
const QWEN_GGUF = 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF';
const QWEN_MLC = 'Qwen3-0.6B-q4f16_1-MLC';
const MIRROR = 'https://mirror.example/gguf';

async function runtime(gpu: WebGpuSupport, load: FakeLoadScript = {}) {
  const webllm = new WebLlmEngine({
    createEngine: async () => new FakeMLCEngine(),
    detectGpu: async () => gpu,
    cacheApi: { hasModelInCache: async (id) => id === 'Qwen3-0.6B-q4f32_1-MLC', deleteBuild: async () => {} },
    storage: { estimate: async () => ({ usage: 1e9, quota: 10e9 }), persisted: async () => true },
  });
  const cache = new FakeWllamaCache().put(`${MIRROR}/Llama-3.2-1B-Instruct-Q4_K_M.gguf`, 1000);
  const wllama = new WllamaEngine({
    catalog: [...GGUF_CATALOG, ...GGUF_TEST_CATALOG],
    modelBase: MIRROR,
    wasmUrl: 'https://app.example/assets/wllama.wasm',
    cache,
    createWllama: () => new FakeWllama({ cache, progress: [{ loaded: 500, total: 1000 }, { loaded: 1000, total: 1000 }], ...load }),
  });
  const modelManager = new RuntimeModelManager(new BrowserDeviceStatus(webllm, { usable: true, reason: null }), [new WebLlmModels(webllm), new WllamaModels(wllama)]);
  const store = await openIdbStore({ name: `local-status-contract-${Date.now()}-${Math.random()}` });
  return createResponsesServer({ store, engines: [new ScriptedEngine(), webllm, wllama], formats: chatFormats, modelManager });
}

async function status(server: { fetch(request: Request): Promise<Response> }) {
  const res = await server.fetch(new Request('http://local/v1/local/status'));
  expect(res.status).toBe(200);
  const json: unknown = await res.json();
  const parsed = LocalStatus.safeParse(json);
  expect(parsed.error?.issues ?? []).toEqual([]);
  expect(parsed.data).toEqual(json);
  return parsed.data!;
}

/** The load stream's events (up to `[DONE]`), each checked against the contract. */
async function loadEvents(res: Response, until?: (event: LoadEvent) => boolean): Promise<LoadEvent[]> {
  const events: LoadEvent[] = [];
  // Iterated by hand: stopping at `until` must not cancel the body (that cancels the load).
  const messages = readSse(res.body!)[Symbol.asyncIterator]();
  for (let next = await messages.next(); !next.done; next = await messages.next()) {
    const message = next.value;
    if (message.data === '[DONE]') break;
    const json: unknown = JSON.parse(message.data);
    const parsed = LoadEvent.safeParse(json);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.data).toEqual(json);
    events.push(parsed.data!);
    if (until?.(parsed.data!)) break;
  }
  return events;
}

const load = (server: { fetch(request: Request): Promise<Response> }, id: string) => server.fetch(new Request(`http://local/v1/local/models/${id}/load`, { method: 'POST' }));

describe('/v1/local contract', () => {
  it('status with a usable (software) GPU: adapter facts, cpu, storage, both engines\' models', async () => {
    const server = await runtime(swiftShader);
    const s = await status(server);
    expect(s.gpu).toMatchObject({ usable: true, fallbackAdapter: true, adapter: { architecture: 'swiftshader' } });
    expect(s.cpu).toEqual({ usable: true, reason: null });
    expect(s.storage).toEqual({ usageBytes: 1e9, quotaBytes: 10e9, persisted: true });
    expect(s.models.find((m) => m.id === QWEN_MLC)).toMatchObject({ variant: 'Qwen3-0.6B-q4f32_1-MLC', cached: true });
    expect(s.models.find((m) => m.id === 'Llama-3.2-1B-Instruct-Q4_K_M-GGUF')).toMatchObject({ cached: true });
    await server.close();
  });

  it('status without an adapter says why (cause), and a load that cannot run ends with an error event', async () => {
    const server = await runtime(noAdapter);
    expect((await status(server)).gpu).toMatchObject({ usable: false, cause: 'no_adapter', shaderF16: false });
    const events = await loadEvents(await load(server, QWEN_MLC));
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'webgpu_unavailable' } });
    await server.close();
  });

  it('a load streams progress then ready; the status shows it loaded', async () => {
    const server = await runtime(swiftShader);
    const events = await loadEvents(await load(server, QWEN_GGUF));
    expect(events.map((e) => e.type)).toEqual(['progress', 'progress', 'progress', 'progress', 'ready']);
    expect(events[1]).toMatchObject({ type: 'progress', phase: 'download', loadedBytes: 500, totalBytes: 1000 });
    const s = await status(server);
    expect(s.loaded).toBe(QWEN_GGUF);
    expect(s.models.find((m) => m.id === QWEN_GGUF)).toMatchObject({ cached: true, loaded: true });
    await server.close();
  });

  it('status during a load carries the load under way', async () => {
    const server = await runtime(swiftShader, { hang: true });
    const res = await load(server, QWEN_GGUF);
    // The fake downloads, then hangs while loading the file into the engine.
    await loadEvents(res, (e) => e.type === 'progress' && e.phase === 'compile');
    expect((await status(server)).loading).toMatchObject({ model: QWEN_GGUF, phase: 'compile', loadedBytes: 1000 });
    await res.body?.cancel().catch(() => {});
    await server.close();
  });
});
