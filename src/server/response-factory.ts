/** The Response object a create request starts as, with OpenAI's defaults filled in. */
import type { CreateResponseRequest } from '../protocol/create-request';
import type { ResponseObject, ResponseStatus } from '../protocol/response-object';

export function initialResponse(id: string, request: CreateResponseRequest, status: ResponseStatus, now: number): ResponseObject {
  return {
    id,
    object: 'response',
    access_programs: null,
    created_at: now,
    completed_at: null,
    status,
    background: request.background ?? false,
    error: null,
    incomplete_details: null,
    // `instructions` apply to this response only; they are not carried along a chain.
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    max_tool_calls: request.max_tool_calls ?? null,
    model: request.model,
    output: [],
    output_text: '',
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    ...(request.conversation ? { conversation: { id: typeof request.conversation === 'string' ? request.conversation : request.conversation.id } } : {}),
    reasoning: request.reasoning ? { effort: request.reasoning.effort ?? null, summary: null } : null,
    service_tier: 'default',
    store: request.store ?? true,
    temperature: request.temperature ?? 1,
    top_p: request.top_p ?? 1,
    presence_penalty: 0,
    frequency_penalty: 0,
    top_logprobs: 0,
    text: { format: request.text?.format ?? { type: 'text' }, verbosity: 'medium' },
    tool_choice: request.tool_choice ?? 'auto',
    tools: (request.tools ?? []).map((tool) =>
      tool.type === 'function'
        ? { ...tool, description: tool.description ?? null, parameters: tool.parameters ?? null, strict: tool.strict ?? true }
        : tool,
    ),
    truncation: 'disabled',
    usage: null,
    ...(request.user !== undefined ? { user: request.user } : {}),
    metadata: request.metadata ?? {},
    safety_identifier: request.safety_identifier ?? null,
    prompt_cache_key: request.prompt_cache_key ?? null,
  };
}
