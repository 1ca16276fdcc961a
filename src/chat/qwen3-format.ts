/**
 * Qwen3: the Qwen chat format (ChatML, Hermes `<tool_call>`s, `<think>` reasoning) with the
 * two things Qwen3's own template (Qwen/Qwen3-8B tokenizer_config.json `chat_template`; the
 * same template ships with Qwen3-0.6B/1.7B/4B) does differently from Qwen2.5's:
 *
 * - `enable_thinking=false` appends an empty think block to the generation prompt,
 *   `<|im_start|>assistant\n<think>\n\n</think>\n\n`, so the model answers without reasoning.
 *   `RenderInput.enableThinking === false` does the same; `true` and `undefined` leave the
 *   prompt open and the model thinks (its default).
 * - With tools but no system message, the system turn holds only the tool block: Qwen3 has
 *   no default "You are Qwen…" message.
 *
 * The empty think block belongs to the generation prompt, not to any message, so it is in
 * `prompt` only; `messages` are those of the conversation.
 */
import type { ChatFormat, RenderInput, Rendered } from './chat-format';
import type { ChatMessage } from './chat-message';
import { createQwenParser, QWEN_CALL_SYNTAX, qwenFormat } from './qwen-format';

/** What Qwen3's template writes after `<|im_start|>assistant\n` when thinking is off. */
export const QWEN3_NO_THINKING = '<think>\n\n</think>\n\n';

export const qwen3Format: ChatFormat = {
  name: 'qwen3',
  render: renderQwen3,
  createParser: createQwenParser,
  callSyntax: QWEN_CALL_SYNTAX,
};

function renderQwen3(input: RenderInput): Rendered {
  const messages = withoutDefaultSystem(qwenFormat.render(input).messages, input);
  const turns = messages.map((message) => `<|im_start|>${message.role}\n${message.content}<|im_end|>\n`);
  const thinking = input.enableThinking === false ? QWEN3_NO_THINKING : '';
  return { messages, prompt: `${turns.join('')}<|im_start|>assistant\n${thinking}` };
}

/**
 * The Qwen renderer puts Qwen2.5's default system message before the tool block when the
 * conversation has no system message of its own; Qwen3's template writes the tool block alone.
 */
function withoutDefaultSystem(messages: ChatMessage[], input: RenderInput): ChatMessage[] {
  if (input.tools.length === 0) return messages;
  const ownSystem = qwenFormat.render({ ...input, tools: [] }).messages[0]?.role === 'system';
  const [first, ...rest] = messages;
  if (ownSystem || !first) return messages;
  return [{ role: 'system', content: first.content.slice(first.content.indexOf('# Tools\n')) }, ...rest];
}
