/**
 * The context-window check before a response starts counts the input the way the engine
 * that runs it will be given it: web-llm gets the rendered messages (it applies its own
 * template), the scripted model the rendered prompt.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ChatFormat } from '../../src/chat/chat-format';
import { chatFormats } from '../../src/chat/chat-formats';
import { qwen3Format } from '../../src/chat/qwen3-format';
import { qwenFormat } from '../../src/chat/qwen-format';
import type { Engine } from '../../src/ports/engine';
import { SCRIPTED_CONTEXT_WINDOW, SCRIPTED_MODEL_ID, ScriptedEngine } from '../../src/engine/scripted-engine';
import { WebLlmEngine } from '../../src/engine/webllm/engine';
import { MODEL_CATALOG, findCatalogEntry } from '../../src/engine/webllm/catalog';
import { createResponsesServer } from '../../src/server/responses-server';
import { openIdbStore } from '../../src/store/idb-store';
import { FakeMLCEngine } from '../fakes/fake-mlc-engine';

const QWEN3 = 'Qwen3-0.6B-q4f16_1-MLC';
const LIMITS = { maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 30, maxComputeWorkgroupStorageSize: 32768, maxStorageBuffersPerShaderStage: 10 };

/** `format` with its prompt replaced, messages kept: whether a check reads the prompt shows in its verdict. */
function withPrompt(format: ChatFormat, prompt: (real: string) => string): ChatFormat {
  return { ...format, render: (input) => ({ ...format.render(input), prompt: prompt(format.render(input).prompt) }) };
}

async function serve(engine: Engine, formats: Record<string, ChatFormat>) {
  const store = await openIdbStore({ name: `context-window-${Date.now()}-${Math.random()}` });
  const server = await createResponsesServer({ store, engines: [engine], formats });
  const create = async (body: Record<string, unknown>) => {
    const res = await server.fetch(new Request('http://local/v1/responses', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
    return { status: res.status, body: (await res.json()) as { error?: { code: string }; status?: string } };
  };
  return { server, create };
}

function webLlm(fake: FakeMLCEngine): WebLlmEngine {
  return new WebLlmEngine({
    createEngine: async () => fake,
    detectGpu: async () => ({ usable: true, shaderF16: true, fallbackAdapter: false, adapter: {}, limits: LIMITS }),
    cacheApi: { hasModelInCache: async () => true, deleteBuild: async () => {} },
    storage: null,
  });
}

describe('the context-window check counts what the engine is given', () => {
  const window = findCatalogEntry(MODEL_CATALOG, QWEN3)!.context_window;
  // Over the window as text (≈ 1 token per 3 characters), even with a prompt the check would miss.
  const tooLong = 'a'.repeat(window * 3 + 300);

  it('web-llm: an over-long conversation is refused although the rendered prompt is short (web-llm never sees that prompt)', async () => {
    const fake = new FakeMLCEngine();
    const { server, create } = await serve(webLlm(fake), { ...chatFormats, qwen3: withPrompt(qwen3Format, () => 'short') });
    const refused = await create({ model: QWEN3, input: tooLong });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.code).toBe('context_length_exceeded');
    expect(fake.requests).toHaveLength(0);
    await server.close();
  });

  it('web-llm: a conversation that fits is let through although the rendered prompt is long', async () => {
    const fake = new FakeMLCEngine();
    fake.replies.push({ tokens: ['Hi'], promptTokens: 5 });
    const { server, create } = await serve(webLlm(fake), { ...chatFormats, qwen3: withPrompt(qwen3Format, () => tooLong) });
    const answered = await create({ model: QWEN3, input: 'Hi' });
    expect(answered.status).toBe(200);
    expect(answered.body.status).toBe('completed');
    expect(fake.requests.at(-1)!.messages.at(-1)).toMatchObject({ role: 'user', content: 'Hi' });
    await server.close();
  });

  it('the scripted model: counts the rendered prompt it is shown', async () => {
    const overPrompt = (real: string) => real + 'x'.repeat(SCRIPTED_CONTEXT_WINDOW * 4);
    const refusing = await serve(new ScriptedEngine(), { ...chatFormats, qwen: withPrompt(qwenFormat, overPrompt) });
    const refused = await refusing.create({ model: SCRIPTED_MODEL_ID, input: 'Hi' });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.code).toBe('context_length_exceeded');
    await refusing.server.close();
  });
});
