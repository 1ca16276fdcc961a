import { readRequestBody, type RequestBodySource } from '../shared/read-request-body';
import { bodyTooLargeResponse, MAX_BODY_BYTES, MAX_UPLOAD_BODY_BYTES, transportErrorResponse, uploadTooLargeResponse } from './transport-error';
import type { ReplyMessage, RequestMessage, WireRequest } from './wire';

/** A requester's connection to one runtime instance. */
export interface RuntimeLink {
  /** The runtime's request port (see `serveRequests`). */
  port: MessagePort;
  /** The lifetime lock this requester holds (already held when the link is used). */
  peerLock: string;
  /** Aborted when the runtime is gone (its lifetime lock was released). */
  gone: AbortSignal;
}

/** The runtime is gone (its lifetime lock was released). */
export class RuntimeGoneError extends Error {
  override name = 'RuntimeGoneError';
  /** Whether the runtime had accepted the request: then it may have started (no retry). */
  constructor(
    message: string,
    readonly accepted: boolean,
  ) {
    super(message);
  }
}

export interface PortResponse {
  response: Response;
  /** Settles when the body has been fully delivered, cancelled or broken. */
  finished: Promise<void>;
}

/**
 * Sends `request` to the runtime over `link` and returns its response as soon as the head
 * arrives; the body streams chunk by chunk, never buffered. Cancelling the body or aborting
 * `signal` cancels the request in the runtime; if the runtime dies mid-body the
 * body errors (the consumer sees a network error, as with a dropped HTTP connection).
 *
 * @throws RuntimeGoneError if the runtime is (or goes) away before the head.
 * @throws the signal's reason if `signal` aborts before the head.
 */
export async function fetchOverPort(link: RuntimeLink, request: Request): Promise<PortResponse> {
  const wire = await toWire(request, MAX_BODY_BYTES, MAX_UPLOAD_BODY_BYTES);
  if (!wire) return { response: tooLargeResponse(request), finished: Promise.resolve() };
  return sendOverPort(link, wire, request.signal);
}

/** The 413 for a body {@link toWire} refused: the upload limit for an upload, else the JSON body limit. */
export function tooLargeResponse(request: Request): Response {
  return isUpload(request) ? uploadTooLargeResponse() : bodyTooLargeResponse();
}

/**
 * {@link fetchOverPort} for a request already read into wire form. The body is copied,
 * not transferred, so the same `wire` can be sent again to another runtime. `deadline`
 * (epoch ms): when the requester's own connection will be cut (a service worker's fetch);
 * the runtime is told the time left, so that it answers before.
 */
export async function sendOverPort(link: RuntimeLink, wire: WireRequest, signal: AbortSignal, deadline?: number): Promise<PortResponse> {
  signal.throwIfAborted();
  if (link.gone.aborted) throw new RuntimeGoneError('The runtime is gone.', false);
  const { port1: mine, port2: theirs } = new MessageChannel();
  const message: RequestMessage = {
    type: 'request',
    request: wire,
    peerLock: link.peerLock,
    reply: theirs,
    ...(deadline !== undefined ? { deadlineMs: Math.max(0, deadline - Date.now()) } : {}),
  };
  link.port.postMessage(message, [theirs]);

  const stop = new AbortController(); // detaches our listeners once the exchange is over
  const cancel = () => {
    mine.postMessage({ type: 'cancel' });
  };
  let accepted = false;
  const head = await new Promise<ReplyMessage>((resolve, reject) => {
    mine.onmessage = (event: MessageEvent<ReplyMessage>) => {
      if (event.data.type === 'accepted') accepted = true;
      else resolve(event.data);
    };
    link.gone.addEventListener('abort', () => reject(new RuntimeGoneError('The runtime stopped.', accepted)), {
      signal: stop.signal,
    });
    signal.addEventListener(
      'abort',
      () => {
        cancel();
        reject(signal.reason);
      },
      { signal: stop.signal },
    );
  }).catch((error: unknown) => {
    stop.abort();
    mine.close();
    throw error;
  });

  if (head.type === 'fail') {
    stop.abort();
    mine.close();
    return { response: transportErrorResponse(500, head.error), finished: Promise.resolve() };
  }
  if (head.type !== 'head') throw new Error(`Protocol error: expected head, got ${head.type}.`);

  let settle!: () => void;
  const finished = new Promise<void>((resolve) => (settle = resolve));
  const end = () => {
    stop.abort();
    mine.close();
    settle();
  };
  const init: ResponseInit = { status: head.head.status, statusText: head.head.statusText, headers: head.head.headers };
  if (!head.hasBody) {
    end();
    return { response: new Response(null, init), finished };
  }
  return { response: new Response(relayChunks(mine, link, signal, stop.signal, end, cancel), init), finished };
}

/** What {@link toWire} reads of a request (a `Request` in any browser, Firefox's without `body` too). */
export interface WireSource extends RequestBodySource {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
}

/** A file upload (`multipart/form-data`): its body crosses as a Blob, under the upload limit. */
function isUpload(request: Pick<RequestBodySource, 'headers'>): boolean {
  return /^multipart\/form-data\b/i.test((request.headers.get('content-type') ?? '').trim());
}

/**
 * The request as wire data; null when its body is over its limit (the body is then not read
 * further, so a huge body is never held whole in the service worker).
 *
 * A JSON body (any body but an upload) is read into bytes, at most `maxBodyBytes` of them. An
 * upload (`multipart/form-data`, at most `maxUploadBytes`) crosses as a Blob: `blob()` keeps a
 * large body in the browser's blob storage (on disk past a size), a Blob crosses `postMessage`
 * by reference, and the server slices the file part out of it into IndexedDB — no thread
 * ever holds the upload whole in its heap.
 */
export async function toWire(request: WireSource, maxBodyBytes = Infinity, maxUploadBytes = maxBodyBytes): Promise<WireRequest | null> {
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const declared = Number(request.headers.get('content-length'));
  const upload = hasBody && isUpload(request);
  const limit = upload ? maxUploadBytes : maxBodyBytes;
  if (hasBody && Number.isFinite(declared) && declared > limit) return null;
  if (upload) {
    const blob = await request.blob();
    if (blob.size > limit) return null;
    return { url: request.url, method: request.method, headers: [...request.headers], body: blob.size > 0 ? blob : null };
  }
  const bytes = hasBody ? await readRequestBody(request, maxBodyBytes) : new Uint8Array(0);
  if (bytes === null) return null;
  const body = bytes.byteLength > 0 ? (bytes.buffer as ArrayBuffer) : null;
  return {
    url: request.url,
    method: request.method,
    headers: [...request.headers],
    body,
  };
}

/** Turns chunk/end/fail messages back into a stream. */
function relayChunks(
  port: MessagePort,
  link: RuntimeLink,
  signal: AbortSignal,
  stopped: AbortSignal,
  end: () => void,
  cancel: () => void,
): ReadableStream<Uint8Array> {
  // Once the body ended, broke or was cancelled, later messages are ignored: Firefox still
  // delivers those queued before the port was closed, and closing or erroring the stream
  // again would throw (an uncaught TypeError in the page after every cancelled stream).
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(c) {
      const broken = (reason: unknown) => {
        if (!open) return;
        open = false;
        c.error(reason);
        end();
      };
      port.onmessage = (event: MessageEvent<ReplyMessage>) => {
        if (!open) return;
        const m = event.data;
        if (m.type === 'chunk') c.enqueue(m.chunk);
        else if (m.type === 'end') {
          open = false;
          c.close();
          end();
        } else if (m.type === 'fail') broken(new TypeError(`network error: ${m.error.message}`));
      };
      link.gone.addEventListener('abort', () => broken(new RuntimeGoneError('The runtime stopped.', true)), {
        signal: stopped,
      });
      signal.addEventListener(
        'abort',
        () => {
          cancel();
          broken(signal.reason);
        },
        { signal: stopped },
      );
    },
    cancel() {
      open = false;
      cancel();
      end();
    },
  });
}
