/**
 * ChatML without tools or reasoning: `<|im_start|>role\n…<|im_end|>\n` turns, ending with
 * `<|im_start|>assistant\n`. For SmolLM2-Instruct, whose template (HuggingFaceTB/
 * SmolLM2-1.7B-Instruct tokenizer_config.json `chat_template`; the 135M and 360M models ship
 * the same) is exactly this, plus a default system message when the conversation has none:
 * `smollm2Format` adds it, `chatmlPlainFormat` does not.
 *
 * `tools` are not described and the parser accepts no calls; function calls and outputs in
 * the history are shown as text (see `toPlainTextTurns`).
 */
import type { ChatFormat, RenderInput, Rendered } from './chat-format';
import { createPlainTextParser } from './plain-text-parser';
import { toPlainTextTurns } from './plain-text-turns';

/** What SmolLM2's template writes when the first message is not a system message. */
export const SMOLLM2_DEFAULT_SYSTEM = 'You are a helpful AI assistant named SmolLM, trained by Hugging Face';

/** A ChatML format named `name`, with `defaultSystem` before conversations that have no system turn first. */
export function createChatmlPlainFormat(name: string, defaultSystem?: string): ChatFormat {
  return {
    name,
    render: (input) => renderChatmlPlain(input, defaultSystem),
    createParser: createPlainTextParser,
  };
}

export const chatmlPlainFormat: ChatFormat = createChatmlPlainFormat('chatml-plain');

export const smollm2Format: ChatFormat = createChatmlPlainFormat('smollm2', SMOLLM2_DEFAULT_SYSTEM);

function renderChatmlPlain(input: RenderInput, defaultSystem: string | undefined): Rendered {
  const turns = toPlainTextTurns(input);
  const messages =
    defaultSystem !== undefined && turns[0]?.role !== 'system' ? [{ role: 'system' as const, content: defaultSystem }, ...turns] : turns;
  const text = messages.map((message) => `<|im_start|>${message.role}\n${message.content}<|im_end|>\n`);
  return { messages, prompt: `${text.join('')}<|im_start|>assistant\n` };
}
