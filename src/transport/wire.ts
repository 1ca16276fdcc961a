/**
 * Wire format between a requester (the service worker, or a page calling the runtime
 * directly) and the runtime worker. Types only: everything here crosses `postMessage`, so
 * it is plain structured-cloneable data (plus transferred ports, buffers and streams).
 *
 * One request = one fresh MessageChannel. The requester posts a {@link RequestMessage} on
 * the runtime's port with one end of that channel as `reply`; the runtime answers on
 * `reply` with an {@link AcceptedMessage} at once, a {@link HeadMessage}, then the body as
 * {@link ChunkMessage}s closed by an {@link EndMessage} or {@link FailMessage}. The
 * requester may send {@link CancelMessage} on `reply` at any time.
 *
 * Why bodies cross as chunk messages and not as transferred ReadableStreams: measured in
 * Chromium 156 (`npm run bench:pipeline`, 5,000 tokens at zero delay), chunk messages
 * deliver ~0.9–1.0× the tokens/s of the server called in-worker, transferred streams only
 * ~0.3–0.5×. A transferred stream crosses threads with high-water mark 0 on the receiving
 * side (the spec's cross-realm transform), so every chunk costs a pull round trip; chunk
 * messages are posted as fast as the server yields them. They also work where streams
 * cannot be transferred (Safari). What they lack is backpressure: for token streams
 * (small, model-paced) that is harmless.
 */

export interface WireRequest {
  url: string;
  method: string;
  headers: [string, string][];
  /**
   * Copied by `postMessage` (not in the transfer list). `null` for GET/HEAD or an empty body.
   * An upload (`multipart/form-data`) is a Blob: it crosses by reference, its bytes unread.
   */
  body: ArrayBuffer | Blob | null;
}

export interface RequestMessage {
  type: 'request';
  request: WireRequest;
  /**
   * Milliseconds the requester can wait for the whole answer: the service worker's budget
   * before the browser cuts its fetch (`sw/fetch-deadline.ts`). The runtime hands it to the
   * server as the `CONNECTION_DEADLINE_HEADER` (protocol/connection-deadline.ts), which no
   * requester can set itself. Absent for a page's own requests, which no such limit cuts.
   */
  deadlineMs?: number;
  /**
   * Name of a Web Lock the requester holds for as long as it lives. The runtime waits on
   * it: when it is granted the requester is gone (SW stopped, tab closed), and every
   * request it made is aborted. MessagePorts give no such signal in Chromium: a
   * transferred stream whose reader died is never cancelled.
   */
  peerLock: string;
  reply: MessagePort;
}

/**
 * Sent before the handler is called: a runtime that dies before the requester saw this
 * never started the request, so the requester may safely send it to the next runtime.
 */
export interface AcceptedMessage {
  type: 'accepted';
}

export interface WireResponseHead {
  status: number;
  statusText: string;
  headers: [string, string][];
}

export interface HeadMessage {
  type: 'head';
  head: WireResponseHead;
  /** Whether chunk messages follow. */
  hasBody: boolean;
}

export interface ChunkMessage {
  type: 'chunk';
  chunk: Uint8Array;
}

export interface EndMessage {
  type: 'end';
}

/** The body broke after the head was sent (or the handler threw before it). */
export interface FailMessage {
  type: 'fail';
  error: TransportErrorData;
}

/** Requester → runtime: the consumer went away; abort the request. */
export interface CancelMessage {
  type: 'cancel';
}

/**
 * Page → runtime, passed on by the service worker over its runtime port: serve requests on
 * `port` for me from now on. A page that does not run the runtime gets a link of its own
 * this way, so its requests never go through the service worker (whose fetches the browser
 * cuts after ~5 minutes). The runtime answers on `port` with {@link ConnectedMessage}; the
 * service worker, when it has no runtime to pass it to, with {@link ConnectRefusedMessage}.
 */
export interface ConnectMessage {
  type: 'connect';
  port: MessagePort;
  /** The page's lifetime lock: the port is closed when the page is gone. */
  peerLock: string;
}

/** Runtime → page on a connected port: requests are served on it; the runtime lives as long as `runtimeLock` is held. */
export interface ConnectedMessage {
  type: 'connected';
  runtimeLock: string;
}

/** Service worker → page on the port it could not pass on: no runtime is running. */
export interface ConnectRefusedMessage {
  type: 'refused';
  error: TransportErrorData;
}

export type ReplyMessage = AcceptedMessage | HeadMessage | ChunkMessage | EndMessage | FailMessage;

/** Errors cross threads as data, never as `Error` objects or `toString()` text. */
export interface TransportErrorData {
  type: 'server_error';
  code: string;
  message: string;
  param: null;
}
