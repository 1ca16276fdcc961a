/**
 * The `openai` SDK's WebSocket client in Node, connected to the server in memory: its
 * `ResponsesWSBase` (what `ResponsesWS` is made of: the connection, `send`, `stream()`, event
 * parsing) over a `WebSocketLike` that hands frames to `server.openSocket`. `ResponsesWS`
 * itself dials a network socket with the `ws` package; the server here has none.
 */
import type OpenAI from 'openai';
import type { ResponsesServerEvent } from 'openai/resources/responses/responses';
import { ResponsesWSBase } from 'openai/resources/responses/ws-base';
import type { ResponsesServer } from '../../src/server/responses-server';
import type { SocketListener } from '../../src/ports/socket-peer';

// The SDK declares its listeners with overloads per event; one loose signature serves them all.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Listener = (...args: any[]) => void;

/** The SDK's `WebSocketLike`: frames to the server's socket session and back, asynchronously as a network would. */
class MemorySocket {
  readyState = 0;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly listener: SocketListener;
  constructor(server: ResponsesServer, url: string) {
    this.listener = server.openSocket(url, {
      send: (text) => setTimeout(() => this.emit('message', text, false)),
      close: (code, reason) => this.closed(code, reason),
    });
    setTimeout(() => {
      this.readyState = 1;
      this.emit('open');
    });
  }
  send(data: string | ArrayBufferLike | ArrayBufferView) {
    const text = typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer);
    setTimeout(() => this.listener.message(text));
  }
  close(code = 1000, reason = '') {
    if (this.readyState >= 2) return;
    this.listener.closed();
    this.closed(code, reason);
  }
  on(type: string, listener: Listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(listener);
  }
  off(type: string, listener: Listener) {
    this.listeners.get(type)?.delete(listener);
  }
  once(type: string, listener: Listener) {
    const wrapped: Listener = (...args) => {
      this.off(type, wrapped);
      listener(...args);
    };
    this.on(type, wrapped);
  }
  private closed(code: number, reason: string) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    setTimeout(() => this.emit('close', code, reason));
  }
  private emit(type: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(type) ?? [])]) listener(...args);
  }
}

export class MemoryResponsesWS extends ResponsesWSBase<MemorySocket> {
  constructor(
    client: OpenAI,
    private readonly server: ResponsesServer,
  ) {
    super(client);
    this._connectInitial();
  }
  protected _createSocket(url: URL): MemorySocket {
    return new MemorySocket(this.server, url.href);
  }
}

/** Every server event the SDK parsed, as it arrives; `until` waits for one that matches. */
export function recordEvents(ws: MemoryResponsesWS) {
  const events: ResponsesServerEvent[] = [];
  let wake: Array<() => void> = [];
  ws.on('event', (event) => {
    events.push(event);
    const w = wake;
    wake = [];
    w.forEach((f) => f());
  });
  return {
    events,
    async until(match: (event: ResponsesServerEvent) => boolean, from = 0, timeoutMs = 10_000): Promise<ResponsesServerEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.slice(from).find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching event within ${timeoutMs} ms; got ${events.map((e) => e.type).join(', ')}`);
        await new Promise<void>((resolve) => {
          wake.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
  };
}
