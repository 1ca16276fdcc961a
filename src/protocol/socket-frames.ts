/**
 * Responses WebSocket mode (`ws(s)://…/v1/responses`): the client's `response.create`
 * frame, the `error` frame the server answers a refused turn with, and the connection's
 * limits and close codes. Every stream event of a turn is one JSON text frame, exactly as
 * in `stream-events.ts`, plus `stream_id` when the frame named a lane.
 *
 * A `response.create` frame is a create body (`create-request.ts`) with `type`, and:
 * - `generate: false` (a warm-up): the request is checked and its state prepared — a
 *   response with no output that later turns can continue — without running the model;
 * - `stream_id`: the lane the turn runs in. Frames of one lane run one after another (FIFO),
 *   lanes run side by side; events echo the lane's `stream_id`.
 * `stream` and `stream_options` are transport fields of HTTP: ignored here (every turn
 * streams; nothing crosses a network, so there is no obfuscation). `background` is refused.
 *
 * A `response.steer` frame (steer-frames.ts) is read here too, and always answered with a
 * steering event (`response.steer.accepted|failed|pending`), never with an `error` frame.
 */
import { invalidRequest, type ApiErrorData } from '../shared/api-error';
import { Codes } from '../shared/error-codes';
import { bodyTooLarge, MAX_BODY_BYTES, nestingError } from './request-limits';
import { readSteerFrame, type SteerRead } from './steer-frames';

/** WebSocket close codes the server uses (RFC 6455 §7.4.1). */
export const WS_CLOSE = {
  /** The client or the server ended the connection normally (also at the connection limit). */
  normal: 1000,
  /** The runtime is shutting down. */
  goingAway: 1001,
  /** The connection ended without a close frame: the local runtime stopped (its tab closed). */
  abnormal: 1006,
} as const;

/** How long one connection may live, as on OpenAI (60 minutes); then a new one must be opened. */
export const SOCKET_LIFETIME_MS = 60 * 60 * 1000;
/** Named lanes per connection, and turns queued or running at once (OpenAI's limits). */
export const MAX_SOCKET_LANES = 32;
export const MAX_SOCKET_TURNS = 16;
/** The largest frame, as the largest HTTP body. */
export const MAX_FRAME_BYTES = MAX_BODY_BYTES;
const MAX_STREAM_ID_LENGTH = 64;

/** A `response.create` frame, read: the create body and the WebSocket fields. */
export interface ResponseCreateFrame {
  /** The create body as sent, without `type`, `generate`, `stream_id`, `stream`, `stream_options`. */
  body: Record<string, unknown>;
  /** False for a warm-up (no model output). */
  generate: boolean;
  /** The lane; null for the connection's default lane. */
  streamId: string | null;
}

/** A `response.steer` frame, read or not (steer-frames.ts): always answered with a steering event, never an `error` frame. */
export interface SteerFrame {
  steer: SteerRead;
}

/** The `error` frame: OpenAI's `ResponsesServerEvent.ResponseWsError` (and Open Responses' `WebSocketErrorEvent`). */
export interface SocketErrorFrame {
  type: 'error';
  status: number;
  error: { type: string; code: string; message: string; param: string | null };
  stream_id?: string;
}

/** A frame that could not be read; `streamId` is the lane it named, when that much was readable. */
export class FrameError extends Error {
  constructor(
    readonly data: ApiErrorData,
    readonly streamId: string | null,
  ) {
    super(data.message);
  }
}

/**
 * Reads one client frame. Throws a {@link FrameError} for anything but a well-formed
 * `response.create` (its create body is validated later, like a POST's) or `response.steer`
 * within the limits.
 */
export function readClientFrame(data: string | ArrayBuffer): ResponseCreateFrame | SteerFrame {
  if (typeof data !== 'string')
    throw new FrameError(invalidRequest('Binary frames are not supported: send each event as a JSON text frame.', null, Codes.invalidValue).data, null);
  // A UTF-16 code unit is at most 3 UTF-8 bytes: count exactly only when it could matter.
  if (data.length * 3 > MAX_FRAME_BYTES && new TextEncoder().encode(data).byteLength > MAX_FRAME_BYTES) throw new FrameError(bodyTooLarge().data, null);
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new FrameError(invalidRequest('The frame is not valid JSON. Send each event as one JSON object in a text frame.', null, Codes.invalidJson).data, null);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new FrameError(invalidRequest('A frame must be a JSON object with a string `type`.', 'type', Codes.invalidType).data, null);
  const tooDeep = nestingError(parsed);
  if (tooDeep) throw new FrameError(tooDeep.data, null);
  if ((parsed as { type?: unknown }).type === 'response.steer') return { steer: readSteerFrame(parsed as Record<string, unknown>) };
  const { type, generate, stream_id: streamId, stream: _stream, stream_options: _options, ...body } = parsed as Record<string, unknown>;
  const lane = readStreamId(streamId);
  const refuse = (message: string, param: string | null, code: (typeof Codes)[keyof typeof Codes] = Codes.invalidValue) =>
    new FrameError(invalidRequest(message, param, code).data, lane);
  if (type !== 'response.create')
    throw refuse(`Unsupported event type ${JSON.stringify(type ?? null)}: the client sends 'response.create' frames (each one a create body with \`type\`) and 'response.steer' frames.`, 'type');
  if (generate !== undefined && typeof generate !== 'boolean') throw refuse("Invalid type for 'generate': expected a boolean.", 'generate', Codes.invalidType);
  if (body.background === true)
    throw refuse('Background mode is not supported over a WebSocket: every turn streams on the connection. Use POST /v1/responses with background: true instead.', 'background');
  delete body.background;
  return { body, generate: generate !== false, streamId: lane };

  function readStreamId(value: unknown): string | null {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_STREAM_ID_LENGTH)
      throw new FrameError(invalidRequest(`Invalid 'stream_id': expected a string of 1 to ${MAX_STREAM_ID_LENGTH} characters.`, 'stream_id', Codes.invalidValue).data, null);
    return value;
  }
}

/**
 * The `error` frame for a refused turn. `code` is always a string (Open Responses requires
 * one). `previous_response_not_found` is a 400 here, as in OpenAI's WebSocket envelope.
 */
export function errorFrame(data: ApiErrorData, streamId: string | null): SocketErrorFrame {
  const status = data.code === Codes.previousResponseNotFound ? 400 : data.status;
  return {
    type: 'error',
    status,
    error: { type: data.type, code: data.code ?? data.type, message: data.message, param: data.param },
    ...(streamId !== null ? { stream_id: streamId } : {}),
  };
}
