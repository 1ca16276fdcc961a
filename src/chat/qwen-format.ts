/**
 * The Qwen2.5 / Qwen3 / Hermes family: ChatML turns, tools described in the system message,
 * calls as `<tool_call>{json}</tool_call>`, reasoning as `<think>…</think>`.
 *
 * `render` follows the `chat_template` of Qwen/Qwen2.5-7B-Instruct's tokenizer_config.json
 * (the same template ships with every Qwen2.5-*-Instruct size), plus the one thing Qwen3's
 * template (Qwen/Qwen3-8B tokenizer_config.json) adds: reasoning of the current tool loop —
 * after the last user message — is shown again as `<think>\n…\n</think>\n\n`; older
 * reasoning is dropped. For conversations without reasoning both templates render the same
 * text, except for the default system message (see `withTools`).
 */
import type { ChatFormat, ConversationItem, ParserOptions, RenderInput, Rendered, ToolSpec } from './chat-format';
import type { ChatMessage } from './chat-message';
import { parseHermesToolCall } from './hermes-tool-call';
import { pythonJsonDumps } from './python-json';
import { createTagStreamParser, type TagGrammar, type TagStreamParser } from './stream-parser';
import type { CallSyntax } from './grammar/call-grammar';

const QWEN25_DEFAULT_SYSTEM = 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.';

const QWEN_GRAMMAR: TagGrammar = {
  reasoning: { open: '<think>', close: '</think>' },
  toolCall: { open: '<tool_call>', close: '</tool_call>', parse: parseHermesToolCall },
};

/** A call as the template writes it: `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>` (grammars constrain calls in this form). */
export const QWEN_CALL_SYNTAX: CallSyntax = {
  open: '<tool_call>',
  frame: (name) => ({ before: `<tool_call>\n{"name": ${JSON.stringify(name)}, "arguments": `, after: '}\n</tool_call>' }),
  reasoning: { open: '<think>', close: '</think>' },
};

export const qwenFormat: ChatFormat = {
  name: 'qwen',
  render: renderQwen,
  createParser: createQwenParser,
  callSyntax: QWEN_CALL_SYNTAX,
};

/** The parser behind `qwenFormat.createParser`, typed with its extra `toolCallSpans()`. */
export function createQwenParser(options: ParserOptions): TagStreamParser {
  return createTagStreamParser(QWEN_GRAMMAR, options);
}

function renderQwen(input: RenderInput): Rendered {
  // An empty `instructions` string is treated as absent rather than as an empty system turn.
  const system: ChatMessage[] = input.instructions ? [{ role: 'system', content: input.instructions }] : [];
  const messages = withTools([...system, ...toMessages(input.items)], input.tools);
  const turns = messages.map((message) => `<|im_start|>${message.role}\n${message.content}<|im_end|>\n`);
  return { messages, prompt: `${turns.join('')}<|im_start|>assistant\n` };
}

/**
 * Appends the tool block to the leading system message, as the template does. Without a
 * leading system message, Qwen2.5's template uses its default "You are Qwen…" — we do that
 * only when tools are present. Without tools we send no system message at all (the Qwen3
 * template's behaviour) instead of Qwen2.5's default: a caller that gave no instructions
 * should not find an identity prompt it never wrote, and Qwen3 models were not trained on it.
 */
function withTools(messages: ChatMessage[], tools: ToolSpec[]): ChatMessage[] {
  if (tools.length === 0) return messages;
  const [first, ...rest] = messages;
  if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${toolsBlock(tools)}` }, ...rest];
  return [{ role: 'system', content: `${QWEN25_DEFAULT_SYSTEM}\n\n${toolsBlock(tools)}` }, ...messages];
}

function toolsBlock(tools: ToolSpec[]): string {
  const signatures = tools.map((tool) => pythonJsonDumps({ type: 'function', function: toolFunction(tool) }));
  return [
    '# Tools',
    '',
    'You may call one or more functions to assist with the user query.',
    '',
    'You are provided with function signatures within <tools></tools> XML tags:',
    '<tools>',
    ...signatures,
    '</tools>',
    '',
    'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:',
    '<tool_call>',
    '{"name": <function-name>, "arguments": <args-json-object>}',
    '</tool_call>',
  ].join('\n');
}

/** OpenAI's function shape; absent fields are left out rather than written as `null`. */
function toolFunction(tool: ToolSpec): Record<string, unknown> {
  return {
    name: tool.name,
    ...(tool.description != null && { description: tool.description }),
    ...(tool.parameters != null && { parameters: tool.parameters }),
  };
}

/** An assistant turn being assembled: the template puts reasoning, then text, then calls. */
interface AssistantTurn {
  reasoning: string[];
  text: string | null;
  calls: string[];
}

/**
 * Groups Responses items into ChatML turns: consecutive reasoning + text + calls form one
 * assistant turn; consecutive function outputs share one user turn of `<tool_response>`s.
 */
function toMessages(items: ConversationItem[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const lastUser = items.findLastIndex((item) => item.type === 'message' && item.role === 'user');
  let assistant: AssistantTurn | null = null;
  let outputs: string[] = [];
  let outputImages: string[] = [];

  const flush = () => {
    if (assistant) messages.push({ role: 'assistant', content: assistantContent(assistant) });
    if (outputs.length > 0) messages.push({ role: 'user', content: outputs.join('\n'), ...(outputImages.length ? { images: outputImages } : {}) });
    assistant = null;
    outputs = [];
    outputImages = [];
  };
  /** The open assistant turn if `item` may still join it, else a fresh one. */
  const turnFor = (joins: (turn: AssistantTurn) => boolean): AssistantTurn => {
    if (assistant && joins(assistant)) return assistant;
    flush();
    assistant = { reasoning: [], text: null, calls: [] };
    return assistant;
  };
  const isEmpty = (turn: AssistantTurn) => turn.text === null && turn.calls.length === 0;

  items.forEach((item, index) => {
    switch (item.type) {
      case 'message':
        if (item.role === 'assistant') turnFor(isEmpty).text = item.text;
        else {
          flush();
          messages.push({ role: item.role === 'user' ? 'user' : 'system', content: item.text, ...(item.images?.length ? { images: item.images } : {}) });
        }
        break;
      case 'reasoning':
        // Qwen3 keeps reasoning only within the current tool loop (and none without a user message).
        if (lastUser >= 0 && index > lastUser) turnFor(isEmpty).reasoning.push(item.text);
        break;
      case 'function_call':
        turnFor(() => true).calls.push(toolCallText(item.name, item.arguments));
        break;
      case 'function_call_output':
        if (assistant) flush();
        outputs.push(`<tool_response>\n${item.output}\n</tool_response>`);
        if (item.images?.length) outputImages.push(...item.images);
        break;
    }
  });
  flush();
  return messages;
}

function assistantContent(turn: AssistantTurn): string {
  const text = turn.text ?? '';
  const head =
    turn.reasoning.length > 0
      ? `<think>\n${trimNewlines(turn.reasoning.join('\n'))}\n</think>\n\n${text.replace(/^\n+/, '')}`
      : text;
  // Each call goes on its own line; the first needs a newline only after some text.
  const calls = turn.calls.map((call, index) => (index === 0 && !text ? call : `\n${call}`));
  return head + calls.join('');
}

/**
 * The template writes the arguments with `tojson`, i.e. Python's spacing, which is also how
 * the model writes them. Arguments that are not JSON are shown as given.
 */
function toolCallText(name: string, args: string): string {
  let shown = args;
  try {
    shown = pythonJsonDumps(JSON.parse(args));
  } catch {
    // Not JSON (a model's malformed call replayed as history): show it unchanged.
  }
  return `<tool_call>\n{"name": "${name}", "arguments": ${shown}}\n</tool_call>`;
}

function trimNewlines(text: string): string {
  return text.replace(/^\n+|\n+$/g, '');
}
