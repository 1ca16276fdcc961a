/**
 * DeepSeek-R1-Distill-Qwen / -Llama: `<｜User｜>…<｜Assistant｜>…<｜end▁of▁sentence｜>` turns after
 * the system text, and a generation prompt that already opens the reasoning block:
 * `<｜Assistant｜><think>\n`. The model's output therefore starts inside `<think>`, and the
 * parser starts in reasoning unless told otherwise (`startInReasoning: false`).
 *
 * No tool calling: the distills were not trained for it, so `render` does not describe
 * `tools` and the parser turns no output into a call. Thinking cannot be switched off either;
 * `enableThinking` is ignored.
 *
 * `render` follows the `chat_template` of deepseek-ai/DeepSeek-R1-Distill-Qwen-32B's
 * tokenizer_config.json (the copy in llama.cpp `models/templates/`; every R1-Distill size,
 * Qwen- and Llama-based, ships this template, which ends with `<｜Assistant｜><think>\n`):
 * - Past assistant text keeps only what follows its last `</think>`; reasoning items are
 *   not shown.
 * - Function calls and outputs in the history (a conversation begun with another model) are
 *   rendered with the DeepSeek-V3 tool tokens the template inherits. Deviations, so that
 *   such history renders sanely: the template's flags for "first call" and "first output"
 *   are never reset, garbling every round after the first, and it closes an outputs block
 *   only when an assistant message follows — we start every round afresh and always close
 *   it; and the template continues the answer right after `<｜tool▁outputs▁end｜>`, without
 *   `<｜Assistant｜>` or a generation prompt — we always open a normal assistant turn, so the
 *   model reasons about the outputs and the parser's start state holds.
 * - The template keeps only the last system message; we join all of them (and
 *   `instructions`) with a blank line, as DeepSeek-R1's own later template does.
 */
import type { ChatFormat, ConversationItem, ParserOptions, RenderInput, Rendered } from './chat-format';
import type { ChatMessage } from './chat-message';
import { createTagStreamParser, type TagStreamParser } from './stream-parser';

const BOS = '<｜begin▁of▁sentence｜>';
const USER = '<｜User｜>';
const ASSISTANT = '<｜Assistant｜>';
const EOS = '<｜end▁of▁sentence｜>';

export const r1DistillFormat: ChatFormat = {
  name: 'r1-distill',
  render: renderR1Distill,
  createParser: createR1DistillParser,
};

/** The parser behind `r1DistillFormat.createParser`: `<think>` only, starting inside it. */
export function createR1DistillParser(options: ParserOptions): TagStreamParser {
  return createTagStreamParser(
    { reasoning: { open: '<think>', close: '</think>' } },
    { toolNames: new Set(), startInReasoning: options.startInReasoning ?? true },
  );
}

/** A piece of the prompt: one message, or a round of calls / outputs shown as one block. */
type Block =
  | { kind: 'message'; message: ChatMessage }
  | { kind: 'calls'; calls: Array<{ name: string; arguments: string }> }
  | { kind: 'outputs'; outputs: string[] };

function renderR1Distill(input: RenderInput): Rendered {
  const system = [input.instructions ?? '', ...input.items.map((item) => (isSystem(item) ? item.text : ''))]
    .filter((text) => text !== '')
    .join('\n\n');
  const blocks = toBlocks(input.items);
  const messages: ChatMessage[] = [
    ...(system ? [{ role: 'system' as const, content: system }] : []),
    ...blocks.flatMap(blockMessages),
  ];
  return { messages, prompt: `${BOS}${system}${blocks.map(blockText).join('')}${ASSISTANT}<think>\n` };
}

function isSystem(item: ConversationItem): item is Extract<ConversationItem, { type: 'message' }> {
  return item.type === 'message' && (item.role === 'system' || item.role === 'developer');
}

function toBlocks(items: ConversationItem[]): Block[] {
  const blocks: Block[] = [];
  for (const item of items) {
    const last = blocks[blocks.length - 1];
    switch (item.type) {
      case 'message':
        if (item.role === 'user') blocks.push({ kind: 'message', message: { role: 'user', content: item.text } });
        if (item.role === 'assistant') blocks.push({ kind: 'message', message: { role: 'assistant', content: afterThink(item.text) } });
        break;
      case 'function_call':
        if (last?.kind === 'calls') last.calls.push(item);
        else blocks.push({ kind: 'calls', calls: [item] });
        break;
      case 'function_call_output':
        if (last?.kind === 'outputs') last.outputs.push(item.output);
        else blocks.push({ kind: 'outputs', outputs: [item.output] });
        break;
      case 'reasoning':
        break;
    }
  }
  return blocks;
}

/** The template shows only the answer of a past turn: `content.split('</think>')[-1]`. */
function afterThink(text: string): string {
  return text.split('</think>').pop() ?? text;
}

function blockText(block: Block): string {
  switch (block.kind) {
    case 'message':
      return block.message.role === 'user' ? USER + block.message.content : ASSISTANT + block.message.content + EOS;
    case 'calls':
      return `${ASSISTANT}${callsText(block.calls)}${EOS}`;
    case 'outputs':
      return outputsText(block.outputs);
  }
}

function blockMessages(block: Block): ChatMessage[] {
  switch (block.kind) {
    case 'message':
      return [block.message];
    case 'calls':
      return [{ role: 'assistant', content: callsText(block.calls) }];
    case 'outputs':
      return block.outputs.map((output) => ({ role: 'tool', content: output }));
  }
}

/** Arguments are written as given: the template inserts the OpenAI-style string unchanged. */
function callsText(calls: Array<{ name: string; arguments: string }>): string {
  const each = calls.map(
    (call) => `<｜tool▁call▁begin｜>function<｜tool▁sep｜>${call.name}\n\`\`\`json\n${call.arguments}\n\`\`\`<｜tool▁call▁end｜>`,
  );
  return `<｜tool▁calls▁begin｜>${each.join('\n')}<｜tool▁calls▁end｜>`;
}

function outputsText(outputs: string[]): string {
  const each = outputs.map((output) => `<｜tool▁output▁begin｜>${output}<｜tool▁output▁end｜>`);
  return `<｜tool▁outputs▁begin｜>${each.join('\n')}<｜tool▁outputs▁end｜>`;
}
