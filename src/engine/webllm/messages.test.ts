import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../ports/engine';
import { MODEL_CATALOG, findCatalogEntry, type CatalogEntry } from './catalog';
import { IMAGE_TOKENS, WEBLLM_EMPTY_THINKING_TOKENS, plain, toWebLlmMessages, webLlmInputTokens, webLlmRequestBody } from './messages';

describe('messages for web-llm’s vision models', () => {
  const png = 'data:image/png;base64,iVBORw0KGgo=';

  it('a user turn with images: one text part, then an image_url part each (no detail, which web-llm refuses)', () => {
    const [system, user] = toWebLlmMessages(
      [
        { role: 'system', content: 'Describe.' },
        { role: 'user', content: 'What is this?', images: [png, 'https://example.com/a.jpg'] },
      ],
      false,
    );
    expect(system).toEqual({ role: 'system', content: 'Describe.' });
    expect(user).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: png } },
        { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
      ],
    });
  });

  it('images count in the context check, and messages with other images differ for the KV reuse', () => {
    const text = webLlmInputTokens([{ content: 'Hi' }]);
    expect(webLlmInputTokens([{ content: 'Hi', images: [png] }])).toBe(text + IMAGE_TOKENS);
    const [a] = toWebLlmMessages([{ role: 'user', content: 'x', images: [png] }], false);
    const [b] = toWebLlmMessages([{ role: 'user', content: 'x', images: ['data:image/png;base64,AAAA'] }], false);
    // Counted as its text and one image embedding, whatever the length of the data URL.
    expect(webLlmInputTokens([a!])).toBe(webLlmInputTokens([{ content: 'x' }]) + IMAGE_TOKENS);
    expect(plain(a!).content).not.toBe(plain(b!).content);
  });
});

describe('max_tokens with thinking off', () => {
  const qwen3 = findCatalogEntry(MODEL_CATALOG, 'Qwen3-0.6B-q4f16_1-MLC')!;
  const llama = findCatalogEntry(MODEL_CATALOG, 'Llama-3.2-1B-Instruct-q4f16_1-MLC')!;
  const body = (entry: CatalogEntry, request: Partial<GenerateRequest>) =>
    webLlmRequestBody(entry, entry.variants.q4f32.modelId, [{ role: 'user', content: 'Hi' }], { model: entry.id, input: { messages: [] }, ...request } as GenerateRequest);

  it("adds the empty think block's tokens, which web-llm counts against max_tokens, to the limit", () => {
    expect(body(qwen3, { maxOutputTokens: 16, enableThinking: false })).toMatchObject({ max_tokens: 16 + WEBLLM_EMPTY_THINKING_TOKENS, extra_body: { enable_thinking: false } });
    // A JSON schema turns thinking off too.
    expect(body(qwen3, { maxOutputTokens: 16, jsonSchema: { type: 'object' } }).max_tokens).toBe(16 + WEBLLM_EMPTY_THINKING_TOKENS);
  });

  it('leaves the limit as asked with thinking on, unset, or a model that does not reason', () => {
    expect(body(qwen3, { maxOutputTokens: 16, enableThinking: true }).max_tokens).toBe(16);
    expect(body(qwen3, { maxOutputTokens: 16 }).max_tokens).toBe(16);
    expect(body(llama, { maxOutputTokens: 16, enableThinking: false }).max_tokens).toBe(16);
    expect(body(qwen3, { enableThinking: false }).max_tokens).toBeUndefined();
  });
});

describe('what web-llm refuses as the last message', () => {
  it('instructions only (no input): sent as the user message, which web-llm requires last', () => {
    expect(toWebLlmMessages([{ role: 'system', content: 'Say hello.' }], false)).toEqual([{ role: 'user', content: 'Say hello.' }]);
  });

  it('a conversation with a user turn keeps its system message', () => {
    expect(toWebLlmMessages([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }], false)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
  });
});
