/**
 * `LocalWebSocket`: a WebSocket whose server is this origin's local runtime, for the
 * Responses API's WebSocket mode (`ws(s)://<this origin>/v1/responses`). It behaves as the
 * browser's `WebSocket` (readyState, `open`/`message`/`error`/`close` events and `on*`
 * handlers, `send`, `close`, `binaryType`, `bufferedAmount`) and takes both call shapes SDKs
 * use: `(url, protocols)` and Node's `(url, {headers})` (the Agents SDK), which a browser's
 * own WebSocket refuses. `installLocalWebSocket()` makes `new WebSocket(url, …)` give one for
 * that URL, and the browser's own for every other.
 *
 * @example
 * import { startLocalRuntime, installLocalWebSocket } from 'local-responses';
 * installLocalWebSocket();
 * void startLocalRuntime();
 * const ws = new WebSocket(location.origin.replace(/^http/, 'ws') + '/v1/responses');
 * ws.onopen = () => ws.send(JSON.stringify({ type: 'response.create', model, input: 'Hi' }));
 * ws.onmessage = (event) => console.log(JSON.parse(event.data).type);
 */
import type { SocketToPage, SocketToRuntime } from '../transport/socket-wire';
import { whenLockReleased } from '../transport/lifetime-lock';
import type { SocketOpener } from './socket-opener';

/** `new WebSocket(url, second)`: protocols, or Node-style options with `headers`. */
export type WebSocketSecondArgument = string | string[] | { headers?: HeadersInit; protocols?: string | string[] };

// Set by `startLocalRuntime` (one runtime per page), like `localFetch`'s: a socket made
// before the runtime answers waits for it.
let opener: Promise<SocketOpener> | undefined;

/** Called by `startLocalRuntime` with how this page opens connections (settles once `/v1` answers). */
export function setSocketOpener(next: Promise<SocketOpener>): void {
  opener = next;
  next.catch(() => {}); // a failed start fails each connection, as a refused handshake
}

/** How long a connection waits for the runtime to accept it. */
const OPEN_TIMEOUT_MS = 15_000;
const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

/** Whether `url` is this origin's WebSocket mode endpoint (`ws:` for an `http:` page, `wss:` for `https:`). */
export function isLocalResponsesSocketUrl(url: string | URL, base = location.href): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url, base);
  } catch {
    return false;
  }
  const page = new URL(base);
  const scheme = parsed.protocol === 'ws:' || parsed.protocol === 'http:' ? 'http:' : parsed.protocol === 'wss:' || parsed.protocol === 'https:' ? 'https:' : null;
  return scheme === page.protocol && parsed.host === page.host && parsed.pathname === '/v1/responses';
}

type Handler<E extends Event> = ((this: WebSocket, event: E) => unknown) | null;

export class LocalWebSocket extends EventTarget {
  static readonly CONNECTING = CONNECTING;
  static readonly OPEN = OPEN;
  static readonly CLOSING = CLOSING;
  static readonly CLOSED = CLOSED;
  readonly CONNECTING = CONNECTING;
  readonly OPEN = OPEN;
  readonly CLOSING = CLOSING;
  readonly CLOSED = CLOSED;

  readonly url: string;
  readonly extensions = '';
  readonly protocol: string;
  binaryType: BinaryType = 'blob';
  onopen: Handler<Event> = null;
  onmessage: Handler<MessageEvent> = null;
  onerror: Handler<Event> = null;
  onclose: Handler<CloseEvent> = null;

  #state: number = CONNECTING;
  #buffered = 0;
  #channel: MessagePort | null = null;
  /** Stops watching the runtime's lock once this connection is over. */
  readonly #over = new AbortController();
  /** Sends wait behind a Blob being read, so frames keep their order. */
  #sending: Promise<void> | null = null;

  constructor(url: string | URL, second?: WebSocketSecondArgument) {
    super();
    const parsed = new URL(url, location.href);
    if (parsed.protocol === 'http:') parsed.protocol = 'ws:';
    if (parsed.protocol === 'https:') parsed.protocol = 'wss:';
    if (parsed.hash) throw new DOMException(`The URL '${parsed.href}' contains a fragment identifier, which is not allowed in WebSocket URLs.`, 'SyntaxError');
    this.url = parsed.href;
    const options = typeof second === 'object' && !Array.isArray(second) ? second : { protocols: second };
    const protocols = options.protocols === undefined ? [] : [options.protocols].flat();
    // The runtime accepts the first subprotocol asked for (the API itself uses none).
    this.protocol = protocols[0] ?? '';
    const headers: [string, string][] = options.headers ? [...new Headers(options.headers)] : [];
    void this.#connect(headers);
  }

  get readyState(): number {
    return this.#state;
  }

  get bufferedAmount(): number {
    return this.#buffered;
  }

  send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
    if (this.#state === CONNECTING) throw new DOMException("Failed to execute 'send' on 'WebSocket': Still in CONNECTING state.", 'InvalidStateError');
    if (this.#state !== OPEN) {
      // As a browser does: data sent after close counts as buffered, and goes nowhere.
      this.#buffered += typeof data === 'string' ? new TextEncoder().encode(data).byteLength : data instanceof Blob ? data.size : (data as ArrayBufferLike | ArrayBufferView).byteLength;
      return;
    }
    if (data instanceof Blob || this.#sending) {
      const frame = async () => (typeof data === 'string' ? data : data instanceof Blob ? await data.arrayBuffer() : copyOf(data));
      const next = (this.#sending ?? Promise.resolve()).then(async () => this.#post({ type: 'frame', data: await frame() }));
      this.#sending = next;
      void next.then(() => {
        if (this.#sending === next) this.#sending = null;
      });
      return;
    }
    this.#post({ type: 'frame', data: typeof data === 'string' ? data : copyOf(data) });
  }

  close(code?: number, reason = ''): void {
    if (code !== undefined && code !== 1000 && !(code >= 3000 && code <= 4999))
      throw new DOMException(`Failed to execute 'close' on 'WebSocket': The close code must be either 1000, or between 3000 and 4999. ${code} is neither.`, 'InvalidAccessError');
    if (new TextEncoder().encode(reason).byteLength > 123)
      throw new DOMException("Failed to execute 'close' on 'WebSocket': The close reason must not be greater than 123 UTF-8 bytes.", 'SyntaxError');
    if (this.#state === CLOSING || this.#state === CLOSED) return;
    if (this.#state === CONNECTING) {
      // Closing before the connection is established fails it (as a browser does).
      this.#state = CLOSING;
      return;
    }
    this.#state = CLOSING;
    // No code: the close frame carries none, which the other side reports as 1005.
    this.#post({ type: 'close', code: code ?? 1005, reason });
  }

  async #connect(headers: [string, string][]): Promise<void> {
    let channel: MessagePort;
    try {
      if (!opener) throw new Error('No local runtime in this page: call startLocalRuntime() first.');
      channel = await (await opener)(this.url, headers);
    } catch {
      return this.#fail();
    }
    this.#channel = channel;
    const timer = setTimeout(() => this.#fail(), OPEN_TIMEOUT_MS);
    channel.onmessage = (event: MessageEvent<SocketToPage>) => {
      const m = event.data;
      if (m.type === 'opened') {
        clearTimeout(timer);
        if (this.#state === CLOSING) {
          // Closed while connecting: the runtime's end goes too, then the connection fails (as a browser reports it).
          this.#post({ type: 'close', code: 1000, reason: '' });
          return this.#fail();
        }
        this.#state = OPEN;
        // The runtime's tab closed: the connection drops without a close frame.
        whenLockReleased(m.runtimeLock, this.#over.signal).then(
          () => this.#fail(),
          () => {},
        );
        this.#fire(new Event('open'));
      } else if (m.type === 'refused') {
        clearTimeout(timer);
        this.#fail();
      } else if (m.type === 'frame') {
        if (this.#state !== OPEN) return;
        const data = typeof m.data === 'string' || this.binaryType === 'arraybuffer' ? m.data : new Blob([m.data]);
        this.#fire(new MessageEvent('message', { data, origin: new URL(this.url).origin }));
      } else if (m.type === 'close') {
        clearTimeout(timer);
        this.#closed(m.code, m.reason, true);
      }
    };
  }

  #post(message: SocketToRuntime): void {
    this.#channel?.postMessage(message);
  }

  /** The connection failed or dropped: `error`, then `close` with 1006, as a browser reports it. */
  #fail(): void {
    if (this.#state === CLOSED) return;
    this.#fire(new Event('error'));
    this.#closed(1006, '', false);
  }

  #closed(code: number, reason: string, wasClean: boolean): void {
    if (this.#state === CLOSED) return;
    this.#state = CLOSED;
    this.#over.abort();
    this.#channel?.close();
    this.#channel = null;
    this.#fire(new CloseEvent('close', { code, reason, wasClean }));
  }

  #fire(event: Event): void {
    const handler = (this as unknown as Record<string, Handler<Event>>)[`on${event.type}`];
    handler?.call(this as unknown as WebSocket, event);
    this.dispatchEvent(event);
  }
}

function copyOf(data: ArrayBufferLike | ArrayBufferView): ArrayBuffer {
  const view = ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
  return view.slice().buffer;
}

/**
 * Makes `new WebSocket(url, …)` connect to this origin's local runtime for
 * `ws(s)://<this origin>/v1/responses` (a {@link LocalWebSocket}), and gives the browser's
 * own WebSocket for every other URL. Idempotent. `instanceof WebSocket` holds for both.
 */
export function installLocalWebSocket(scope: { WebSocket: typeof WebSocket } = globalThis): void {
  const Native = scope.WebSocket;
  if ((Native as { [ROUTED]?: true })[ROUTED]) return;
  function RoutedWebSocket(this: unknown, url: string | URL, second?: WebSocketSecondArgument): WebSocket {
    if (!new.target) throw new TypeError("Failed to construct 'WebSocket': Please use the 'new' operator.");
    if (isLocalResponsesSocketUrl(url)) return new LocalWebSocket(url, second) as unknown as WebSocket;
    return Reflect.construct(Native, second === undefined ? [url] : [url, second], new.target === (Routed as unknown) ? Native : new.target) as WebSocket;
  }
  const Routed = RoutedWebSocket as unknown as typeof globalThis.WebSocket & { [ROUTED]: true };
  Object.defineProperty(Routed, 'name', { value: 'WebSocket' });
  for (const key of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED'] as const) Object.defineProperty(Routed, key, { value: Native[key], enumerable: true });
  Object.defineProperty(Routed, 'prototype', { value: Native.prototype });
  Object.defineProperty(Routed, Symbol.hasInstance, { value: (value: unknown) => value instanceof Native || value instanceof LocalWebSocket });
  Object.defineProperty(Routed, ROUTED, { value: true });
  scope.WebSocket = Routed;
}

const ROUTED = Symbol.for('local-responses/routed-websocket');
