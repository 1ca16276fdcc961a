/**
 * What the server's shared state knows of a response while it runs. The run itself lives in
 * `run/`, a stage above this folder: state names only what routes, the socket and retention
 * ask of a running response, so the state folder imports no stage.
 */
import type { ResponseObject } from '../../protocol/response-object';
import type { StreamEvent } from '../../protocol/stream-events';
import type { StopReason } from '../../shared/abort';

export interface RunningResponse {
  readonly id: string;
  /** Settles with the response as it ended (every run ends in exactly one terminal state). */
  readonly done: Promise<ResponseObject>;
  /** The conversation the run will append to, if any. */
  readonly conversationId: string | null;
  /** The response as it stands, partial output included. */
  snapshot(): ResponseObject;
  /** Its events after sequence number `after` (-1: all), live until the run ends. */
  follow(after: number, signal?: AbortSignal): AsyncIterable<StreamEvent>;
  stop(reason: StopReason): void;
}
