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

/**
 * Tokens web-llm's conversation templates add per message (role header and end markers: 4–5
 * in ChatML and Llama 3) and before the reply (the assistant header, plus the empty think
 * block when thinking is off), counted generously like `estimateTokens`.
 */
const TURN_MARKUP_TOKENS = 8;

/**
 * The estimated prompt length of `messages` as web-llm is given them: their text plus its
 * template's markup. Counted on the messages, not on our chat format's prompt, because
 * web-llm applies its own template and never sees that prompt.
 */
export function webLlmInputTokens(messages: ReadonlyArray<{ content?: unknown }>): number {
  const text = messages.reduce((sum, m) => sum + estimateTokens(typeof m.content === 'string' ? m.content : ''), 0);
  return text + (messages.length + 1) * TURN_MARKUP_TOKENS;
}

/**
 * Our messages as web-llm takes them. web-llm accepts a system message only first, and a
 * `tool` message only when the model's conversation template has a tool role.
 */
export function toWebLlmMessages(messages: readonly ChatMessage[], toolRole: boolean): ChatCompletionMessageParam[] {
  return messages.map((message, index): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return index === 0 ? { role: 'system', content: message.content } : { role: 'user', content: message.content };
      case 'assistant':
        return { role: 'assistant', content: message.content };
      case 'tool':
        return toolRole ? { role: 'tool', content: message.content, tool_call_id: '' } : { role: 'user', content: message.content };
      default:
        return { role: 'user', content: message.content };
    }
  });
}

export function plain(message: ChatCompletionMessageParam): { role: string; content: string } {
  return { role: message.role, content: typeof message.content === 'string' ? message.content : '' };
}

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
  if (request.maxOutputTokens !== undefined) body.max_tokens = request.maxOutputTokens;
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
  const thinking = webLlmThinking(request, entry);
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
