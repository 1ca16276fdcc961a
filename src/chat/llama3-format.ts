/**
 * Llama 3.1 / 3.2 Instruct: `<|start_header_id|>role<|end_header_id|>\n\n…<|eot_id|>` turns,
 * tools described in the first user message, calls written as a bare JSON object
 * `{"name": …, "parameters": {…}}` making up the whole assistant message, tool results in
 * `ipython` turns. No reasoning.
 *
 * `render` follows the `chat_template` of meta-llama/Llama-3.2-3B-Instruct's
 * tokenizer_config.json (the copy in llama.cpp `models/templates/`; Llama-3.2-1B-Instruct
 * ships the same template, and Llama-3.1-8B-Instruct's differs only in built-in tools, which
 * we do not use), with its defaults: `tools_in_user_message = true`, `date_string =
 * "26 Jul 2024"`. Where the template cannot render a conversation we meet, we choose:
 * - Several leading system/developer messages (and `instructions`) are joined into the one
 *   system message the template extracts (`messages[0]`), separated by a blank line.
 * - The template allows one call per assistant message; parallel calls become consecutive
 *   assistant turns, one call each, and assistant text before a call is its own turn (the
 *   template would drop it).
 * - If the conversation does not start with a user message, the tool block becomes a user
 *   turn of its own (the template would take whatever message comes first, or fail).
 *
 * `messages[i].content` is exactly the text between a turn's header and its `<|eot_id|>`;
 * the system message includes the template's date preamble, tool results have role `tool`
 * (header `ipython`).
 */
import type { ChatFormat, ConversationItem, ParserOptions, RenderInput, Rendered, ToolSpec } from './chat-format';
import type { ChatMessage } from './chat-message';
import { parseLlamaToolCall } from './llama-tool-call';
import { pythonJsonDumps } from './python-json';
import type { TagStreamParser } from './stream-parser';
import { toolDefinition } from './tool-definition';
import { createWholeMessageCallParser } from './whole-message-call-parser';

/** The template's `date_string` when the caller passes none. */
export const LLAMA3_DEFAULT_DATE = '26 Jul 2024';

/** Written by Llama 3.x before a call in "ipython" mode; optional for JSON calls. */
export const LLAMA3_PYTHON_TAG = '<|python_tag|>';

export interface Llama3FormatOptions {
  /** The template's `date_string` ("Today Date: …"), e.g. `"05 Mar 2025"`. */
  dateString?: string;
}

/**
 * @example
 * // Today's date instead of the template's fixed default (changes the prompt daily, so a
 * // conversation crossing midnight re-prefills its system turn):
 * const format = createLlama3Format({ dateString: '05 Mar 2025' });
 */
export function createLlama3Format(options: Llama3FormatOptions = {}): ChatFormat {
  const dateString = options.dateString ?? LLAMA3_DEFAULT_DATE;
  return {
    name: 'llama3',
    render: (input) => renderLlama3(input, dateString),
    createParser: createLlama3Parser,
  };
}

export const llama3Format: ChatFormat = createLlama3Format();

/** The parser behind `llama3Format.createParser`, typed with its extra `toolCallSpans()`. */
export function createLlama3Parser(options: ParserOptions): TagStreamParser {
  return createWholeMessageCallParser({ prefix: LLAMA3_PYTHON_TAG, parse: parseLlamaToolCall }, options);
}

const TOOLS_INTRO =
  'Given the following functions, please respond with a JSON for a function call ' +
  'with its proper arguments that best answers the given prompt.\n\n' +
  'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.' +
  'Do not use variables.\n\n';

function renderLlama3(input: RenderInput, dateString: string): Rendered {
  const firstOther = input.items.findIndex((item) => !isSystem(item));
  const leading = firstOther < 0 ? input.items : input.items.slice(0, firstOther);
  const systemTexts = [input.instructions ?? '', ...leading.map((item) => (isSystem(item) ? item.text : ''))];
  const system = systemTexts.filter((text) => text !== '').join('\n\n');

  const preamble =
    (input.tools.length > 0 ? 'Environment: ipython\n' : '') +
    'Cutting Knowledge Date: December 2023\n' +
    `Today Date: ${dateString}\n\n`;
  const turns = toTurns(firstOther < 0 ? [] : input.items.slice(firstOther));
  const messages: ChatMessage[] = [{ role: 'system', content: preamble + system.trim() }, ...withTools(turns, input.tools)];

  const rendered = messages.map((message) => `${header(message.role === 'tool' ? 'ipython' : message.role)}${message.content}<|eot_id|>`);
  return { messages, prompt: `<|begin_of_text|>${rendered.join('')}${header('assistant')}` };
}

function header(role: string): string {
  return `<|start_header_id|>${role}<|end_header_id|>\n\n`;
}

function isSystem(item: ConversationItem): item is Extract<ConversationItem, { type: 'message' }> {
  return item.type === 'message' && (item.role === 'system' || item.role === 'developer');
}

/** The template's `tools_in_user_message`: the tool block opens the first user message. */
function withTools(turns: ChatMessage[], tools: ToolSpec[]): ChatMessage[] {
  if (tools.length === 0) return turns;
  // `tojson(indent=4)` is Python's `json.dumps(indent=4)`: the same text as JSON.stringify's.
  const block = TOOLS_INTRO + tools.map((tool) => `${JSON.stringify(toolDefinition(tool), null, 4)}\n\n`).join('');
  const [first, ...rest] = turns;
  if (first?.role === 'user') return [{ role: 'user', content: block + first.content }, ...rest];
  return [{ role: 'user', content: block }, ...turns];
}

/** One turn per item; text is trimmed as the template's `| trim` does. Reasoning is not shown. */
function toTurns(items: ConversationItem[]): ChatMessage[] {
  return items.flatMap((item): ChatMessage[] => {
    switch (item.type) {
      case 'message':
        return [{ role: item.role === 'user' || item.role === 'assistant' ? item.role : 'system', content: item.text.trim() }];
      case 'function_call':
        return [{ role: 'assistant', content: `{"name": "${item.name}", "parameters": ${argumentsText(item.arguments)}}` }];
      case 'function_call_output':
        // The template writes `content | tojson` for strings too (a Jinja string "is iterable"),
        // so a tool result is shown as a JSON string literal, quotes and escapes included.
        return [{ role: 'tool', content: JSON.stringify(item.output) }];
      case 'reasoning':
        return [];
    }
  });
}

/**
 * The template prints the arguments object with `tojson`, Python's spacing, which is also how
 * the model writes them. Arguments that are not JSON are shown as given.
 */
function argumentsText(args: string): string {
  try {
    return pythonJsonDumps(JSON.parse(args));
  } catch {
    // Not JSON (a model's malformed call replayed as history): show it unchanged.
    return args;
  }
}
