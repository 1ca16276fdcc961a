/**
 * `raw-completion`: for base models without a chat template (test models such as
 * stories260K, which continues stories): the prompt is the text of the last user message,
 * nothing else — no instructions, no earlier turns, no role markup — so "Once upon a time"
 * is continued as written. The engine adds the model's BOS token when its vocabulary asks
 * for one. Every output is plain text (no tool calls, no reasoning).
 */
import type { ChatFormat, RenderInput, Rendered } from './chat-format';
import { createPlainTextParser } from './plain-text-parser';

function renderLastUserText(input: RenderInput): Rendered {
  let text = '';
  for (const item of input.items) {
    if (item.type === 'message' && item.role === 'user') text = item.text;
  }
  return { messages: [{ role: 'user', content: text }], prompt: text };
}

export const rawCompletionFormat: ChatFormat = {
  name: 'raw-completion',
  render: renderLastUserText,
  createParser: createPlainTextParser,
};
