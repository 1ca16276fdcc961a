import { pacedBatches } from '../shared/paced-batches';
import { whenLockReleased } from './lifetime-lock';
import { transportError } from './transport-error';
import type { ConnectedMessage, ConnectMessage, HeadMessage, ReplyMessage, RequestMessage, WireRequest } from './wire';
import { CONNECTION_DEADLINE_HEADER } from '../protocol/connection-deadline';
import { Codes } from '../shared/error-codes';
import { serveSocket, type SocketService } from './serve-sockets';
import type { SocketOpenMessage } from './socket-wire';

export type RequestHandler = (request: Request) => Promise<Response>;

export interface ServeOptions {
  /** Who is alive among the requesters (one watch per runtime, shared by its ports). */
  peers?: PeerWatch;
  /** WebSocket connections opened on the port (`serve-sockets.ts`). */
  sockets?: SocketService;
  /** This runtime's lifetime lock, told to a page that connects a port of its own. */
  runtimeLock?: string;
}

/**
 * Runtime side of the transport: answers every {@link RequestMessage} arriving on `port`
 * with `handler`. Each request gets an AbortSignal that fires when the requester cancels
 * the body, sends `cancel`, or dies (its peer lock is released) — so the server stops a
 * stream nobody reads, exactly as it would on an HTTP disconnect. With `sockets`, WebSocket
 * connections opened on `port` are served too (`serve-sockets.ts`); with `runtimeLock`, a
 * {@link ConnectMessage} (a page's own port, passed on by the service worker) is served as
 * one more port. `owner`: the lifetime lock of the one requester of `port`, when known before
 * its first request (a connected page's).
 */
export function serveRequests(port: MessagePort, handler: RequestHandler, options: ServeOptions = {}, owner?: string): void {
  const peers = options.peers ?? new PeerWatch();
  const shared: ServeOptions = { ...options, peers };
  let owned = false;
  // Each port serves one requester (an SW instance or a page): close it when that one
  // dies, or every SW restart (every closed tab) would leave a port behind in the runtime.
  const claim = (peerLock: string) => {
    if (owned) return;
    owned = true;
    const requester = new AbortController();
    requester.signal.addEventListener('abort', () => port.close(), { once: true });
    peers.track(peerLock, requester);
  };
  if (owner !== undefined) claim(owner);
  port.onmessage = (event: MessageEvent<RequestMessage | SocketOpenMessage | ConnectMessage>) => {
    // A WebSocket connection (its frames then travel on its own channel). It says nothing of
    // who holds this port: the service worker passes on the connections of other pages.
    if (event.data?.type === 'socket') {
      if (shared.sockets && event.data.channel instanceof MessagePort) void serveSocket(event.data, shared.sockets, peers);
      return;
    }
    // A page's own port, passed on by the service worker (which does not own it either).
    if (event.data?.type === 'connect') {
      const { port: pagePort, peerLock } = event.data;
      if (!(pagePort instanceof MessagePort) || typeof peerLock !== 'string' || shared.runtimeLock === undefined) return;
      serveRequests(pagePort, handler, shared, peerLock);
      const connected: ConnectedMessage = { type: 'connected', runtimeLock: shared.runtimeLock };
      pagePort.postMessage(connected);
      return;
    }
    if (event.data?.type !== 'request') return;
    claim(event.data.peerLock);
    void serveOne(event.data, handler, peers);
  };
}

/** Aborts all requests of a requester once its lifetime lock is released. */
export class PeerWatch {
  readonly #requests = new Map<string, Set<AbortController>>();

  /** `whenReleased` is injectable for tests outside browsers (no Web Locks in Node 20). */
  constructor(private readonly whenReleased: (lock: string) => Promise<void> = whenLockReleased) {}

  track(peerLock: string, controller: AbortController): () => void {
    let set = this.#requests.get(peerLock);
    if (!set) {
      const fresh = new Set<AbortController>();
      set = fresh;
      this.#requests.set(peerLock, fresh);
      // One waiter per peer, not per request: lock requests are cheap but not free.
      void this.whenReleased(peerLock).then(() => {
        this.#requests.delete(peerLock);
        for (const c of fresh) c.abort(new DOMException('The client went away.', 'AbortError'));
      });
    }
    set.add(controller);
    return () => set.delete(controller);
  }
}

async function serveOne(message: RequestMessage, handler: RequestHandler, peers: PeerWatch): Promise<void> {
  const { reply } = message;
  const controller = new AbortController();
  const untrack = peers.track(message.peerLock, controller);
  const post = (m: ReplyMessage, transfer: Transferable[] = []) => reply.postMessage(m, transfer);
  reply.onmessage = (event) => {
    if (event.data?.type === 'cancel') controller.abort(new DOMException('The client cancelled.', 'AbortError'));
  };
  const finish = () => {
    untrack();
    reply.close();
  };
  post({ type: 'accepted' });

  let response: Response;
  try {
    response = await handler(toRequest(message.request, message.deadlineMs, controller.signal));
  } catch (error) {
    // The server maps its own errors to HTTP; reaching here means it threw outright.
    post({ type: 'fail', error: transportError(Codes.runtimeError, describe(error)) });
    finish();
    return;
  }
  const head: HeadMessage['head'] = {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
  };
  const source = response.body;
  if (!source) {
    post({ type: 'head', head, hasBody: false });
    finish();
    return;
  }
  const reader = source.getReader();
  // Whatever stops the exchange (cancel message, peer death, consumer cancel) aborts the
  // Request's signal and cancels the server's body: the server sees a disconnect.
  // A cancel that fails means the body already ended or broke: nothing left to stop.
  const cancelBody = () => void reader.cancel(controller.signal.reason).catch(() => {});
  if (controller.signal.aborted) cancelBody(); // gone while the handler was running
  else controller.signal.addEventListener('abort', cancelBody, { once: true });

  post({ type: 'head', head, hasBody: true });
  try {
    for await (const chunk of coalesced(reader)) {
      // Copied, not transferred: a chunk may be a view into a buffer the server reuses.
      post({ type: 'chunk', chunk });
    }
    post({ type: 'end' });
  } catch (error) {
    if (!controller.signal.aborted) post({ type: 'fail', error: transportError(Codes.streamError, describe(error)) });
  } finally {
    finish();
  }
}

/**
 * While a body streams fast, its chunks leave in at most one message per interval (after a
 * burst, so the few events that open a response are not held): each message costs a task on
 * the SW and page threads, and on a 2-core device those tasks take CPU from the model
 * (measured with wllama: ~0.2 ms of transport per token). Slower streams (a token every
 * 20–50 ms) are never delayed.
 */
const MESSAGE_PACE = { intervalMs: 8, burst: 8 };

/** The body's chunks, joined into one message per batch (see MESSAGE_PACE). */
async function* coalesced(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<Uint8Array> {
  // No `return()`: cancelling the body is `cancelBody`'s job.
  const chunks: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => ({ next: () => reader.read() as Promise<IteratorResult<Uint8Array>> }) };
  for await (const batch of pacedBatches(chunks, MESSAGE_PACE)) yield join(batch);
}

function join(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/**
 * The server's Request. The connection deadline is the transport's to say: a header of that
 * name from the requester is dropped, and set again only from the service worker's budget.
 */
function toRequest(wire: WireRequest, deadlineMs: number | undefined, signal: AbortSignal): Request {
  const headers = new Headers(wire.headers);
  headers.delete(CONNECTION_DEADLINE_HEADER);
  if (typeof deadlineMs === 'number' && Number.isFinite(deadlineMs)) headers.set(CONNECTION_DEADLINE_HEADER, String(Math.max(0, Math.round(deadlineMs))));
  return new Request(wire.url, { method: wire.method, headers, body: wire.body, signal });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
