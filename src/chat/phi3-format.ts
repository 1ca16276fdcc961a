/**
 * Phi-3 / Phi-3.5-mini-instruct: `<|system|>\n…<|end|>\n<|user|>\n…<|end|>\n<|assistant|>\n`,
 * following the `chat_template` of microsoft/Phi-3.5-mini-instruct's tokenizer_config.json:
 * a system turn only when its text is not empty, no BOS in the text (the tokenizer's
 * business), and no tool calling or reasoning — `tools` are not described, the parser
 * accepts no calls, and function calls and outputs in the history are shown as text
 * (see `toPlainTextTurns`).
 */
import type { ChatFormat, RenderInput, Rendered } from './chat-format';
import { createPlainTextParser } from './plain-text-parser';
import { toPlainTextTurns } from './plain-text-turns';

export const phi3Format: ChatFormat = {
  name: 'phi3',
  render: renderPhi3,
  createParser: createPlainTextParser,
};

function renderPhi3(input: RenderInput): Rendered {
  const messages = toPlainTextTurns(input).filter((message) => message.role !== 'system' || message.content !== '');
  const turns = messages.map((message) => `<|${message.role}|>\n${message.content}<|end|>\n`);
  return { messages, prompt: `${turns.join('')}<|assistant|>\n` };
}
