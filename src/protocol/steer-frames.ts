/**
 * Steering over the WebSocket (openai 7.59): the client's `response.steer` frame, which queues
 * user input for a response running on the connection, and the server's answers —
 * `response.steer.accepted` (the input is queued), `response.steer.failed` (rejected, or
 * accepted but not committed; the input comes back) and `response.steer.pending` (the target
 * stopped for client-owned tool output: send it, and the queued input goes with it).
 *
 * `sequence_number` of these events is the sequence number of the target response's latest
 * event sent before them on the connection (0 when there is none): they are not events of the
 * response's own stream, and a resume over HTTP does not replay them.
 */
import { z } from 'zod';
import { InputFilePart, InputImagePart, InputTextPart } from './input-parts';
import { paramPath } from './validation-error';
import type { ResponseObject } from './response-object';

/** A user message, as steering takes it: `type`, `role`, `content` (and the SDK's `id`, `status`). */
const SteerMessage = z.strictObject({
  type: z.literal('message').default('message'),
  role: z.literal('user', { message: "Steering accepts only messages with the 'user' role." }),
  content: z.union([z.string(), z.array(z.discriminatedUnion('type', [InputTextPart, InputImagePart, InputFilePart])).min(1)]),
  id: z.string().nullish(),
  status: z.string().nullish(),
});

export const SteerInput = z.union([z.string().min(1), z.array(SteerMessage).min(1).max(64)]);
export type SteerInput = z.infer<typeof SteerInput>;

/** The frame: only `type`, `previous_response_id` and `input` (the target decides the lane). */
export const ResponseSteerFrame = z.strictObject({
  type: z.literal('response.steer'),
  previous_response_id: z.string().min(1).max(256),
  input: SteerInput,
});
export type ResponseSteerFrame = z.infer<typeof ResponseSteerFrame>;

/** `ResponseSteerErrorCode` values this runtime sends. */
export type SteerErrorCode =
  | 'response_not_found'
  | 'invalid_input'
  | 'steering_not_supported'
  | 'too_many_pending_steers'
  | 'response_already_completed'
  | 'response_not_active'
  | 'successor_creation_failed';

/** A steer frame read, or why it cannot be (then answered `response.steer.failed` with `invalid_input`). */
export type SteerRead = { ok: true; frame: ResponseSteerFrame } | { ok: false; message: string; previousResponseId: string; input: unknown };

export function readSteerFrame(parsed: Record<string, unknown>): SteerRead {
  const result = ResponseSteerFrame.safeParse(parsed);
  if (result.success) return { ok: true, frame: result.data };
  const issue = result.error.issues[0]!;
  const where = paramPath(issue.path);
  const message = where === 'stream_id' ? "Do not send 'stream_id' with response.steer: the target response decides the lane." : `Invalid '${where || 'event'}': ${issue.message}`;
  const previous = typeof parsed.previous_response_id === 'string' ? parsed.previous_response_id : '';
  return { ok: false, message, previousResponseId: previous, input: parsed.input ?? '' };
}

/** What identifies a steering submission in the events. */
export interface SteerRef {
  id: string;
  previous_response_id: string;
}

export interface SteerAcceptedEvent {
  type: 'response.steer.accepted';
  sequence_number: number;
  steer: SteerRef;
  stream_id?: string;
}

export interface SteerFailedEvent {
  type: 'response.steer.failed';
  sequence_number: number;
  error: { code: SteerErrorCode; message: string; type: 'invalid_request_error' };
  /** The input as sent, returned uncommitted; `id` once one was given. */
  steer: { input: SteerInput; previous_response_id: string; id?: string };
  stream_id?: string;
}

/** An outstanding client-owned result the target waits for: identifying fields only. */
export type SteerRequiredInput =
  | { type: 'function_call_output'; call_id: string; name: string }
  | { type: 'custom_tool_call_output'; call_id: string }
  | { type: 'computer_call_output'; call_id: string }
  | { type: 'shell_call_output'; call_id: string }
  | { type: 'apply_patch_call_output'; call_id: string }
  | { type: 'mcp_approval_response'; approval_request_id: string };

export interface SteerPendingEvent {
  type: 'response.steer.pending';
  sequence_number: number;
  reason: 'waiting_for_required_input';
  required_input: SteerRequiredInput[];
  steer: SteerRef;
  stream_id?: string;
}

export type SteerEvent = SteerAcceptedEvent | SteerFailedEvent | SteerPendingEvent;

/** What a completed response waits for from the client: stubs of its client-owned calls and approval requests. */
export function requiredInput(response: Pick<ResponseObject, 'output'>): SteerRequiredInput[] {
  return response.output.flatMap((item): SteerRequiredInput[] => {
    switch (item.type) {
      case 'function_call':
        return [{ type: 'function_call_output', call_id: item.call_id, name: item.name }];
      case 'custom_tool_call':
        return [{ type: 'custom_tool_call_output', call_id: item.call_id }];
      case 'computer_call':
        return [{ type: 'computer_call_output', call_id: item.call_id }];
      case 'shell_call':
        return [{ type: 'shell_call_output', call_id: item.call_id }];
      case 'apply_patch_call':
        return [{ type: 'apply_patch_call_output', call_id: item.call_id }];
      case 'mcp_approval_request':
        return [{ type: 'mcp_approval_response', approval_request_id: item.id }];
      default:
        return [];
    }
  });
}
