import { describe, expect, it } from 'vitest';
import { IMAGE_TOKENS, plain, toWebLlmMessages, webLlmInputTokens } from './messages';

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
