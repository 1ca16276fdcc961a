/**
 * Gemma 2 (instruction-tuned): `<bos><start_of_turn>user\n…<end_of_turn>\n<start_of_turn>model\n`,
 * following the `chat_template` of google/gemma-2-2b-it's tokenizer_config.json: the
 * assistant role is `model`, each turn's text is trimmed, and there is no tool calling or
 * reasoning — `tools` are not described, the parser accepts no calls, and function calls and
 * outputs in the history are shown as text (see `toPlainTextTurns`).
 *
 * That template rejects a system message and turns that do not alternate user/model. Rather
 * than fail, system text is treated as user text and consecutive turns of one role are
 * joined with a blank line — so instructions come before the first user text, separated by
 * a blank line, which is what Gemma 3's template does with a leading system message.
 */
import type { ChatFormat, RenderInput, Rendered } from './chat-format';
import type { ChatMessage } from './chat-message';
import { createPlainTextParser } from './plain-text-parser';
import { toPlainTextTurns } from './plain-text-turns';

export const gemmaFormat: ChatFormat = {
  name: 'gemma',
  render: renderGemma,
  createParser: createPlainTextParser,
};

function renderGemma(input: RenderInput): Rendered {
  const messages: ChatMessage[] = [];
  for (const turn of toPlainTextTurns(input)) {
    const role = turn.role === 'assistant' ? 'assistant' : 'user';
    const content = turn.content.trim();
    const last = messages[messages.length - 1];
    if (last?.role === role) last.content = last.content ? `${last.content}\n\n${content}` : content;
    else messages.push({ role, content });
  }
  const turns = messages.map((message) => `<start_of_turn>${message.role === 'assistant' ? 'model' : 'user'}\n${message.content}<end_of_turn>\n`);
  return { messages, prompt: `<bos>${turns.join('')}<start_of_turn>model\n` };
}
