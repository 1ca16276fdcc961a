/**
 * One round of a run as a Chat Completions request (`POST {base}/chat/completions`), the
 * wire every OpenAI-compatible server speaks. The conversation goes structured — the
 * upstream applies its own model's template — never as our rendered prompt: instructions,
 * system and developer notes as `system`; user text and images as `content` parts; an
 * assistant's text and the function calls after it as one assistant message with
 * `tool_calls`; tool outputs as `tool` messages (their images in a user message after them). Reasoning the model did earlier is not sent
 * back (most servers refuse or ignore it in history).
 */
import type { ConversationItem, RenderInput, ToolSpec } from '../../chat/chat-format';
import type { GenerateRequest } from '../../ports/engine';

type ChatContent = string | Array<{ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }>;
interface ToolCallOut {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}
export type ChatMessage =
  | { role: 'system' | 'user'; content: ChatContent }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCallOut[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** How a server wants a few fields (what differs between OpenAI and the servers that copy it). */
export interface ChatProfile {
  /** OpenAI's own API wants `max_completion_tokens` (o-series refuse `max_tokens`); the servers want `max_tokens` (Ollama knows no other). */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
}

export function chatProfile(baseUrl: string): ChatProfile {
  return { maxTokensField: new URL(baseUrl).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens' };
}

function userContent(item: Extract<ConversationItem, { type: 'message' }>): ChatContent {
  if (!item.images?.length) return item.text;
  return [...(item.text ? [{ type: 'text' as const, text: item.text }] : []), ...item.images.map((url) => ({ type: 'image_url' as const, image_url: { url } }))];
}

/** The conversation as chat messages. */
export function chatMessages(conversation: RenderInput): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (conversation.instructions) messages.push({ role: 'system', content: conversation.instructions });
  const toolImages: Array<{ callId: string; url: string }> = [];
  for (const [index, item] of conversation.items.entries()) {
    switch (item.type) {
      case 'message':
        if (item.role === 'assistant') messages.push({ role: 'assistant', content: item.text });
        else messages.push({ role: item.role === 'user' ? 'user' : 'system', content: item.role === 'user' ? userContent(item) : item.text });
        break;
      case 'function_call': {
        const call: ToolCallOut = { id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } };
        const last = messages.at(-1);
        // Calls join the assistant message they follow (its text, or the calls before them).
        if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
        else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
        break;
      }
      case 'function_call_output':
        messages.push({ role: 'tool', tool_call_id: item.call_id, content: item.output });
        // A `tool` message holds text only: a tool's images follow, after the run of tool
        // messages (nothing may come between the calls' answers), as a user message.
        for (const url of item.images ?? []) toolImages.push({ callId: item.call_id, url });
        break;
      case 'reasoning':
        break;
    }
    const next = conversation.items[index + 1];
    if (toolImages.length && next?.type !== 'function_call_output') {
      const calls = [...new Set(toolImages.map((image) => image.callId))].join(', ');
      messages.push({ role: 'user', content: [{ type: 'text', text: `The images the tool returned (call ${calls}):` }, ...toolImages.map(({ url }) => ({ type: 'image_url' as const, image_url: { url } }))] });
      toolImages.length = 0;
    }
  }
  return messages;
}

export function chatTool(tool: ToolSpec): { type: 'function'; function: Record<string, unknown> } {
  return {
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.parameters ?? { type: 'object', properties: {} },
    },
  };
}

/**
 * The request body for one round. `tool_choice` naming one function is sent as `required`
 * with that function alone: llama.cpp takes only the strings (an object silently becomes
 * `auto`), and OpenAI and vLLM read both the same way.
 */
export function chatRequest(request: GenerateRequest, upstreamModel: string, profile: ChatProfile): Record<string, unknown> {
  const conversation = request.conversation ?? { items: [], tools: [] };
  const named = typeof request.toolChoice === 'object' ? request.toolChoice.name : null;
  const tools = conversation.tools.filter((t) => named === null || t.name === named).map(chatTool);
  const format =
    request.jsonSchema === undefined
      ? undefined
      : Object.keys(request.jsonSchema).length === 0
        ? { type: 'json_object' }
        : { type: 'json_schema', json_schema: { name: request.jsonSchemaName ?? 'response', schema: request.jsonSchema } };
  return {
    model: upstreamModel,
    messages: chatMessages(conversation),
    ...(tools.length ? { tools } : {}),
    ...(tools.length && (named !== null || request.toolChoice === 'required') ? { tool_choice: 'required' } : {}),
    ...(tools.length && request.parallelToolCalls !== undefined ? { parallel_tool_calls: request.parallelToolCalls } : {}),
    ...(format ? { response_format: format } : {}),
    ...(request.maxOutputTokens !== undefined ? { [profile.maxTokensField]: request.maxOutputTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.topP !== undefined ? { top_p: request.topP } : {}),
    ...(request.stop?.length ? { stop: request.stop } : {}),
    ...(request.reasoningEffort !== undefined ? { reasoning_effort: request.reasoningEffort } : {}),
    // llama.cpp reports nothing for `top_logprobs: 0`: ask for one and keep what was asked.
    ...(request.topLogprobs !== undefined ? { logprobs: true, top_logprobs: Math.max(1, request.topLogprobs) } : {}),
    stream: true,
    stream_options: { include_usage: true },
  };
}
