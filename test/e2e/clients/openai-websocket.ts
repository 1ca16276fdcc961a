/**
 * The `openai` SDK's WebSocket client in the page. Its public `ResponsesWS`
 * (`openai/resources/responses/ws`) cannot run here: it is built on the Node `ws` package,
 * whose browser build throws. What it is made of can: `ResponsesWSBase` (the connection,
 * `send`, `stream()`) and the lanes helper `ResponsesWebSocketSession`, given a socket
 * adapter over the page's `WebSocket` (the SDK's own browser adapter is internal, not
 * exported) — about what `ResponsesWS` adds for Node.
 */
import OpenAI from 'openai';
import { ResponsesWSBase } from 'openai/resources/responses/ws-base';
import { ResponsesWebSocketSession } from 'openai/lib/responses/responses-websocket-session';
import { baseURL, MODEL, script } from './scenario-kit';

// The SDK declares its listeners with overloads per event; one loose signature serves them all.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Listener = (...args: any[]) => void;

/** The SDK's `WebSocketLike` over a browser WebSocket: DOM events → positional listeners. */
class PageSocket {
  private readonly listeners = new Map<Listener, { type: string; handler: (event: Event) => void }>();
  constructor(private readonly ws: WebSocket) {
    ws.binaryType = 'arraybuffer';
  }
  get readyState() {
    return this.ws.readyState;
  }
  send(data: string | ArrayBufferLike | ArrayBufferView) {
    this.ws.send(data as string);
  }
  close(code?: number, reason?: string) {
    this.ws.close(code, reason);
  }
  on(type: string, listener: Listener) {
    const handler = (event: Event) => {
      if (type === 'message') listener((event as MessageEvent).data, typeof (event as MessageEvent).data !== 'string');
      else if (type === 'close') listener((event as CloseEvent).code, (event as CloseEvent).reason);
      else if (type === 'error') listener(new Error('WebSocket error'));
      else listener();
    };
    this.listeners.set(listener, { type, handler });
    this.ws.addEventListener(type, handler);
  }
  off(type: string, listener: Listener) {
    const entry = this.listeners.get(listener);
    if (entry) this.ws.removeEventListener(type, entry.handler);
    this.listeners.delete(listener);
  }
  once(type: string, listener: Listener) {
    const wrapped: Listener = (...args) => {
      this.off(type, wrapped);
      listener(...args);
    };
    this.on(type, wrapped);
  }
}

/** `ResponsesWS` for a page: the SDK's connection logic, the page's WebSocket. */
export class PageResponsesWS extends ResponsesWSBase<PageSocket> {
  constructor(client: OpenAI) {
    super(client);
    this._connectInitial();
  }
  protected _createSocket(url: URL): PageSocket {
    return new PageSocket(new WebSocket(url.href));
  }
}

function client() {
  return new OpenAI({ baseURL: baseURL(), apiKey: 'local', dangerouslyAllowBrowser: true, maxRetries: 0 });
}

/** `send` + `stream()`: a turn's events as the SDK parses them. */
export async function streamOneTurn() {
  const ws = new PageResponsesWS(client());
  const types: string[] = [];
  let text = '';
  ws.send({ type: 'response.create', model: MODEL, input: 'from the SDK' });
  for await (const message of ws.stream()) {
    if (message.type !== 'message') continue;
    types.push(message.message.type);
    if (message.message.type === 'response.output_text.delta') text += message.message.delta;
    if (message.message.type === 'response.completed') break;
  }
  ws.close();
  return { url: ws.url.href, types, text };
}

/** Two lanes on one connection through the SDK's session helper, the second forked from the first's response. */
export async function lanes() {
  const ws = new PageResponsesWS(client());
  await new Promise<void>((resolve) => ws.socket.once('open', () => resolve()));
  const session = new ResponsesWebSocketSession(ws, { maxLanes: 4, maxBufferedEvents: 10_000, maxBufferedBytes: 10_000_000 });
  const a = session.lane('a');
  const b = session.lane('b');
  a.create({ model: MODEL, store: false, input: script('lane a answers', { delay_ms: 5 }) });
  b.create({ model: MODEL, store: false, input: script('lane b answers', { delay_ms: 5 }) });
  const [ra, rb] = await Promise.all([a.finalResponse(), b.finalResponse()]);
  const c = session.lane('c');
  c.create({ model: MODEL, store: false, previous_response_id: ra.id, input: 'forked' });
  const rc = await c.finalResponse();
  session.close();
  ws.close();
  return { a: ra.output_text, b: rb.output_text, c: rc.output_text, previous: rc.previous_response_id === ra.id };
}
