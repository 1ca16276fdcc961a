/** The Response object a create request starts as, with OpenAI's defaults filled in. */
import type { CreateResponseRequest } from '../../protocol/create-request';
import type { ResponseObject, ResponseStatus } from '../../protocol/response-object';
import type { ToolEcho } from '../../ports/builtin-tool';
import { asSent } from '../state/tool-registry';
import { Codes } from '../../shared/error-codes';

/** `echo`: how a builtin tool's entry is shown and stored (the tool registry's: secrets dropped). */
export function initialResponse(id: string, request: CreateResponseRequest, status: ResponseStatus, now: number, echo: ToolEcho = asSent): ResponseObject {
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
    reasoning: request.reasoning
      ? { effort: request.reasoning.effort ?? null, summary: request.reasoning.summary ?? request.reasoning.generate_summary ?? null }
      : null,
    service_tier: 'default',
    store: request.store ?? true,
    temperature: request.temperature ?? 1,
    top_p: request.top_p ?? 1,
    presence_penalty: 0,
    frequency_penalty: 0,
    top_logprobs: request.top_logprobs ?? 0,
    text: { format: request.text?.format ?? { type: 'text' }, verbosity: request.text?.verbosity ?? 'medium' },
    tool_choice: request.tool_choice ?? 'auto',
    tools: (request.tools ?? []).map((tool) => {
      if (tool.type === 'function') return { ...tool, description: tool.description ?? null, parameters: tool.parameters ?? null, strict: tool.strict ?? true };
      // Secrets are for this request's calls only: the echoed (and stored) tool never carries them.
      return echo(tool);
    }),
    truncation: request.truncation ?? 'disabled',
    usage: null,
    ...(request.user !== undefined ? { user: request.user } : {}),
    metadata: request.metadata ?? {},
    safety_identifier: request.safety_identifier ?? null,
    prompt_cache_key: request.prompt_cache_key ?? null,
  };
}

/**
 * The failed response that replaces a stored one the runtime could not read back at start:
 * keeps the id (and model and creation time when they survived) and says what happened.
 */
export function unreadableResponse(id: string, reason: string, salvage: Partial<ResponseObject> | null, now: number): ResponseObject {
  const model = typeof salvage?.model === 'string' ? salvage.model : 'unknown';
  const created = typeof salvage?.created_at === 'number' && Number.isInteger(salvage.created_at) ? salvage.created_at : now;
  return {
    ...initialResponse(id, { model }, 'failed', created),
    background: salvage?.background === true,
    error: {
      code: Codes.serverError,
      message: `This response was cut off by an earlier runtime and its stored copy could not be read back (${reason}); its output is lost. Send the request again.`,
    },
  };
}
