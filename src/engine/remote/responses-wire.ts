/**
 * One round as an upstream Responses request (`POST {base}/responses`), for OpenAI and the
 * servers whose Chat Completions lacks something: `store: false` and the whole input every
 * time — the upstream keeps nothing, never a `previous_response_id` — and its stream read
 * back into parse events: `output_text` and refusal deltas as text, `reasoning_text` and
 * reasoning summary deltas as reasoning, finished `function_call` items as tool calls,
 * `usage` from the terminal event. Reasoning is not sent back: an upstream that keeps no
 * state can only take it encrypted, which this runtime does not hold.
 */
import type { ParseEvent, RenderInput } from '../../chat/chat-format';
import type { EngineDelta, GenerateRequest } from '../../ports/engine';
import { callEvent, finishOf, sampledLogprob, type StreamEnd } from './chat-stream';

function inputItems(conversation: RenderInput): unknown[] {
  return conversation.items.flatMap((item): unknown[] => {
    switch (item.type) {
      case 'message':
        if (item.role === 'user' && item.images?.length)
          return [{ type: 'message', role: 'user', content: [...(item.text ? [{ type: 'input_text', text: item.text }] : []), ...item.images.map((image_url) => ({ type: 'input_image', image_url, detail: 'auto' }))] }];
        // With its `type`: OpenAI infers it, llama.cpp's /responses refuses an item without one.
        return [{ type: 'message', role: item.role, content: item.text }];
      case 'function_call':
        return [{ type: 'function_call', call_id: item.call_id, name: item.name, arguments: item.arguments }];
      case 'function_call_output':
        if (item.images?.length)
          return [{ type: 'function_call_output', call_id: item.call_id, output: [{ type: 'input_text', text: item.output }, ...item.images.map((image_url) => ({ type: 'input_image', image_url, detail: 'auto' }))] }];
        return [{ type: 'function_call_output', call_id: item.call_id, output: item.output }];
      case 'reasoning':
        return [];
    }
  });
}

export function responsesRequest(request: GenerateRequest, upstreamModel: string): Record<string, unknown> {
  const conversation = request.conversation ?? { items: [], tools: [] };
  const named = typeof request.toolChoice === 'object' ? request.toolChoice.name : null;
  const tools = conversation.tools.map((t) => ({ type: 'function', name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.parameters ?? { type: 'object', properties: {} }, strict: false }));
  const format =
    request.jsonSchema === undefined
      ? undefined
      : Object.keys(request.jsonSchema).length === 0
        ? { type: 'json_object' }
        : { type: 'json_schema', name: request.jsonSchemaName ?? 'response', schema: request.jsonSchema };
  return {
    model: upstreamModel,
    input: inputItems(conversation),
    ...(conversation.instructions ? { instructions: conversation.instructions } : {}),
    ...(tools.length ? { tools } : {}),
    ...(tools.length && named !== null ? { tool_choice: { type: 'function', name: named } } : tools.length && request.toolChoice === 'required' ? { tool_choice: 'required' } : {}),
    ...(tools.length && request.parallelToolCalls !== undefined ? { parallel_tool_calls: request.parallelToolCalls } : {}),
    ...(format ? { text: { format } } : {}),
    ...(request.maxOutputTokens !== undefined ? { max_output_tokens: request.maxOutputTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.topP !== undefined ? { top_p: request.topP } : {}),
    ...(request.reasoningEffort !== undefined ? { reasoning: { effort: request.reasoningEffort } } : {}),
    ...(request.topLogprobs !== undefined ? { top_logprobs: request.topLogprobs, include: ['message.output_text.logprobs'] } : {}),
    store: false,
    stream: true,
  };
}

/** Reads an upstream Responses stream's events. */
export class ResponsesStreamReader {
  readonly end: StreamEnd = { finish: null, usage: null };
  /** Set by `response.failed` / `error`: the upstream's own message. */
  failure: string | null = null;
  private reasoning = false;

  constructor(
    private readonly toolNames: ReadonlySet<string>,
    private readonly topLogprobs: number | undefined,
  ) {}

  get finished(): boolean {
    return this.end.finish !== null || this.end.unknownFinish !== undefined || this.failure !== null;
  }

  push(event: Record<string, unknown>): EngineDelta | null {
    const type = typeof event.type === 'string' ? event.type : '';
    const delta = typeof event.delta === 'string' ? event.delta : '';
    switch (type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        if (!delta) return null;
        const raw = Array.isArray(event.logprobs) ? (event.logprobs as unknown[]) : [];
        const logprobs = this.topLogprobs !== undefined ? raw.flatMap((l) => sampledLogprob(l, this.topLogprobs!) ?? []) : [];
        return { text: '', tokens: Math.max(1, logprobs.length), events: [...this.closeReasoning(), { type: 'text', text: delta }], ...(logprobs.length ? { logprobs } : {}) };
      }
      case 'response.reasoning_text.delta':
      case 'response.reasoning_summary_text.delta':
        if (!delta) return null;
        this.reasoning = true;
        return { text: '', tokens: 1, events: [{ type: 'reasoning', text: delta }] };
      case 'response.function_call_arguments.delta':
        return { text: '', tokens: 1, events: [] };
      case 'response.output_item.done': {
        const item = (event.item ?? {}) as { type?: unknown; name?: unknown; arguments?: unknown };
        if (item.type === 'reasoning') return { text: '', tokens: 0, events: this.closeReasoning() };
        if (item.type !== 'function_call' || typeof item.name !== 'string') return null;
        const events: ParseEvent[] = [...this.closeReasoning(), callEvent(item.name, typeof item.arguments === 'string' ? item.arguments : '', this.toolNames)];
        return { text: '', tokens: 0, events };
      }
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        return this.terminal(type, (event.response ?? {}) as Record<string, unknown>);
      case 'error':
        this.failure = typeof event.message === 'string' ? event.message : JSON.stringify(event).slice(0, 500);
        return null;
      default:
        return null;
    }
  }

  private terminal(type: string, response: Record<string, unknown>): EngineDelta | null {
    const u = response.usage as { input_tokens?: unknown; output_tokens?: unknown; input_tokens_details?: { cached_tokens?: unknown }; output_tokens_details?: { reasoning_tokens?: unknown } } | undefined;
    const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);
    if (u && typeof u.input_tokens === 'number')
      this.end.usage = { inputTokens: count(u.input_tokens), cachedTokens: count(u.input_tokens_details?.cached_tokens), outputTokens: count(u.output_tokens), reasoningTokens: count(u.output_tokens_details?.reasoning_tokens) };
    if (type === 'response.completed') this.end.finish = 'stop';
    else if (type === 'response.incomplete') {
      const reason = (response.incomplete_details as { reason?: unknown } | null | undefined)?.reason;
      this.end.finish = finishOf(reason === 'max_output_tokens' ? 'length' : String(reason)) ?? 'length';
    } else {
      const error = response.error as { message?: unknown } | null | undefined;
      this.failure = typeof error?.message === 'string' ? error.message : 'the upstream response failed';
    }
    const events = this.closeReasoning();
    return events.length ? { text: '', tokens: 0, events } : null;
  }

  private closeReasoning(): ParseEvent[] {
    if (!this.reasoning) return [];
    this.reasoning = false;
    return [{ type: 'reasoning_done' }];
  }
}
