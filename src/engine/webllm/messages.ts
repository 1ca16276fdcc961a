/**
 * Our chat messages and generation parameters as web-llm is given them, and what the
 * messages cost in its context window.
 * web-llm applies its own conversation template, so the window is counted on these
 * messages, never on our chat format's prompt (which web-llm does not see).
 */
import type { ChatCompletionMessageParam, ChatCompletionRequestStreaming } from '@mlc-ai/web-llm';
import type { GenerateRequest } from '../../ports/engine';
import type { CatalogEntry } from './catalog';
import type { ChatMessage } from '../../chat/chat-message';
import { estimateTokens } from '../token-estimate';
import { printGrammar } from '../../chat/grammar/print-grammar';

/**
 * Tokens web-llm's conversation templates add per message (role header and end markers: 4–5
 * in ChatML and Llama 3) and before the reply (the assistant header, plus the empty think
 * block when thinking is off), counted generously like `estimateTokens`.
 */
const TURN_MARKUP_TOKENS = 8;

/**
 * Tokens one image takes in a vision model's prompt: the image embedding web-llm prefills
 * whole (1921 for Phi-3.5-vision, web-llm's own example); counted so the context check
 * sees images too.
 */
export const IMAGE_TOKENS = 1921;

/**
 * The estimated prompt length of `messages` as web-llm is given them: their text plus its
 * template's markup. Counted on the messages, not on our chat format's prompt, because
 * web-llm applies its own template and never sees that prompt.
 */
export function webLlmInputTokens(messages: ReadonlyArray<{ content?: unknown; images?: readonly string[] }>): number {
  const text = messages.reduce((sum, m) => sum + estimateTokens(plainContent(m.content, false)) + imageCount(m) * IMAGE_TOKENS, 0);
  return text + (messages.length + 1) * TURN_MARKUP_TOKENS;
}

/** Images of a message: ours (`images`), or web-llm's `image_url` content parts. */
function imageCount(message: { content?: unknown; images?: readonly string[] }): number {
  if (message.images) return message.images.length;
  return Array.isArray(message.content) ? message.content.filter((p: { type?: string }) => p.type === 'image_url').length : 0;
}

/**
 * A message's text: its string content, or its text parts — with `withImages`, images as their
 * URLs too (so two messages with other images differ); without, only text (what is counted).
 */
function plainContent(content: unknown, withImages = true): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((p: { type?: string; text?: string; image_url?: { url?: string } }) => (p.type === 'text' ? [p.text ?? ''] : withImages ? [`[image ${p.image_url?.url ?? ''}]`] : []))
    .join('\n');
}

/**
 * Our messages as web-llm takes them. web-llm accepts a system message only first, and a
 * `tool` message only when the model's conversation template has a tool role. It also
 * refuses a conversation whose last message is not `user` or `tool` (`MessageOrderError`):
 * a request of instructions only (no input) is sent as a user message, so the model answers
 * them as other engines do; an input that ends with an assistant message is a 400 before the
 * run (`Engine.answersOnlyAfterUser`, server/request/message-order.ts).
 */
export function toWebLlmMessages(messages: readonly ChatMessage[], toolRole: boolean): ChatCompletionMessageParam[] {
  if (messages.length > 0 && messages.every((m) => m.role === 'system')) {
    return [{ role: 'user', content: messages.map((m) => m.content).join('\n\n') }];
  }
  return messages.map((message, index): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return index === 0 ? { role: 'system', content: message.content } : { role: 'user', content: message.content };
      case 'assistant':
        return { role: 'assistant', content: message.content };
      case 'tool':
        return toolRole ? { role: 'tool', content: message.content, tool_call_id: '' } : { role: 'user', content: message.content };
      default:
        return message.images?.length ? { role: 'user', content: withImages(message.content, message.images) } : { role: 'user', content: message.content };
    }
  });
}

/**
 * A user turn with images, as web-llm's vision models take it: one text part (web-llm allows
 * no more), then an `image_url` part per image (a `data:` URL: the server fetches any other
 * itself, under its URL policy, so web-llm never does; no `detail`,
 * which web-llm refuses).
 */
function withImages(text: string, images: readonly string[]): Array<{ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }> {
  return [{ type: 'text', text }, ...images.map((url) => ({ type: 'image_url' as const, image_url: { url } }))];
}

export function plain(message: ChatCompletionMessageParam): { role: string; content: string } {
  return { role: message.role, content: plainContent(message.content) };
}

/**
 * Tokens of the empty think block web-llm 0.2.86 adds with `enable_thinking: false`
 * (`<think>\n\n</think>\n\n`) in Qwen3's tokenizer, the catalog's one reasoning family:
 * `<think>`, `\n\n`, `</think>`, `\n\n`.
 */
export const WEBLLM_EMPTY_THINKING_TOKENS = 4;

/** web-llm requires 0 < top_p <= 1; OpenAI allows 0 (greedy). */
const MIN_TOP_P = 1e-6;

/** The chat-completions request web-llm gets for one generation of `request`. */
export function webLlmRequestBody(
entry: CatalogEntry,
variantId: string,
messages: ChatCompletionMessageParam[],
request: GenerateRequest,
): ChatCompletionRequestStreaming {
  const body: ChatCompletionRequestStreaming = {
    model: variantId,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  const thinking = webLlmThinking(request, entry);
  // With thinking off, web-llm puts the empty think block into the reply's token list, and
  // its `max_tokens` counts that list: the block would take its tokens from the answer.
  if (request.maxOutputTokens !== undefined) body.max_tokens = request.maxOutputTokens + (thinking === false ? WEBLLM_EMPTY_THINKING_TOKENS : 0);
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = Math.min(1, Math.max(MIN_TOP_P, request.topP));
  if (request.stop && request.stop.length > 0) body.stop = request.stop;
  // web-llm computes logprobs only when asked for at least one alternative; the generation trims to what was asked.
  if (request.topLogprobs !== undefined) Object.assign(body, { logprobs: true, top_logprobs: Math.max(1, request.topLogprobs) });
  if (request.jsonSchema) {
    // web-llm compiles `schema` (a JSON string) with xgrammar; `{}` asks for any JSON object.
    const schema = Object.keys(request.jsonSchema).length === 0 ? { type: 'object' } : request.jsonSchema;
    body.response_format = { type: 'json_object', schema: JSON.stringify(schema) };
  }
  // A custom tool's grammar holds the whole output to the call grammar (chat/grammar/call-grammar.ts).
  if (request.outputGrammar) body.response_format = { type: 'grammar', grammar: printGrammar(request.outputGrammar) };
  if (thinking !== undefined) body.extra_body = { enable_thinking: thinking };
  return body;
}

/**
 * `enable_thinking` for web-llm: only for models that reason. Under a JSON schema it is
 * off: the grammar forbids `<think>` anyway, and with thinking off the model gets the
 * empty think block it was trained to see before a direct answer.
 */
export function webLlmThinking(request: GenerateRequest, entry: CatalogEntry | undefined): boolean | undefined {
  if (!entry?.capabilities.reasoning) return undefined;
  return request.jsonSchema ? false : request.enableThinking;
}
