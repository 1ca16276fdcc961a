/**
 * WebSocket mode from a page of the origin, as any script would use it: the page's own
 * `WebSocket` (which the app routes to the runtime for `ws(s)://<origin>/v1/responses`).
 * `sockets` drives connections step by step for the tests; `compliance` plays the Open
 * Responses compliance suite's seven WebSocket scenarios (test ids as in the suite), each
 * returning every frame of every turn for the test to validate.
 */

export type Frame = Record<string, unknown> & { type: string; stream_id?: string };
const TERMINAL = new Set(['response.completed', 'response.failed', 'response.incomplete', 'error']);

export function socketUrl(): string {
  return `${location.origin.replace(/^http/, 'ws')}/v1/responses`;
}

/** One connection and everything it received, read turn by turn. */
export class Connection {
  readonly frames: Frame[] = [];
  readonly states: string[] = [];
  closeEvent: { code: number; reason: string; wasClean: boolean } | null = null;
  errors = 0;
  readonly ready: Promise<void>;
  private readonly read = new Map<string, number>();
  private wake: Array<() => void> = [];

  constructor(readonly ws: WebSocket) {
    this.ready = new Promise((resolve, reject) => {
      ws.addEventListener('open', () => resolve());
      ws.addEventListener('close', () => reject(new Error('closed before opening')));
    });
    this.ready.catch(() => {});
    ws.addEventListener('message', (event: MessageEvent) => {
      this.frames.push(JSON.parse(String(event.data)) as Frame);
      this.notify();
    });
    ws.addEventListener('error', () => {
      this.errors++;
      this.notify();
    });
    ws.addEventListener('close', (event: CloseEvent) => {
      this.closeEvent = { code: event.code, reason: event.reason, wasClean: event.wasClean };
      this.notify();
    });
  }

  static async open(url = socketUrl(), second?: unknown): Promise<Connection> {
    const WebSocketWithOptions = WebSocket as unknown as new (url: string, second?: unknown) => WebSocket;
    const connection = new Connection(second === undefined ? new WebSocket(url) : new WebSocketWithOptions(url, second));
    await connection.ready;
    return connection;
  }

  send(frame: object | string): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The frames of the next turn of `lane`, up to its terminal frame (or the close). */
  async turn(lane = '', timeoutMs = 30_000): Promise<Frame[]> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const start = this.read.get(lane) ?? 0;
      const mine = this.frames.filter((f) => (f.stream_id ?? '') === lane);
      const end = mine.findIndex((f, i) => i >= start && TERMINAL.has(f.type));
      if (end >= 0) {
        this.read.set(lane, end + 1);
        return mine.slice(start, end + 1);
      }
      if (this.closeEvent || performance.now() > deadline) return mine.slice(start);
      await new Promise<void>((resolve) => {
        this.wake.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  async create(body: object, lane?: string): Promise<Frame[]> {
    this.send({ type: 'response.create', ...body, ...(lane ? { stream_id: lane } : {}) });
    return this.turn(lane);
  }

  async closed(): Promise<NonNullable<Connection['closeEvent']>> {
    while (!this.closeEvent) await new Promise<void>((resolve) => this.wake.push(resolve));
    return this.closeEvent;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = [];
    wake.forEach((f) => f());
  }
}

const MODEL = 'test-scripted';
const terminalResponse = (turn: Frame[]) => (turn.at(-1)?.response ?? null) as { id: string; status: string } | null;
const errorCode = (turn: Frame[]) => {
  const last = turn.at(-1);
  if (last?.type === 'error') return (last.error as { code?: string }).code ?? null;
  return ((last?.response as { error?: { code?: string } } | undefined)?.error?.code ?? null) as string | null;
};

/** One scenario's turns (every frame) and what it asserts, as data. */
export interface ScenarioResult {
  turns: Frame[][];
  /** Problems found in the page (the Node side validates the frames against the document). */
  problems: string[];
}

/**
 * The suite's seven WebSocket scenarios (openresponses/openresponses, its `websocket-*`
 * templates), played over this page's WebSocket with the suite's Bun call shape
 * `new WebSocket(url, {headers})`. The checks the suite makes on error codes and turn
 * outcomes are made here; schemas are checked in Node.
 */
export const compliance: Record<string, () => Promise<ScenarioResult>> = {
  async 'websocket-response'() {
    const c = await Connection.open(socketUrl(), { headers: { 'Content-Type': 'application/json', Authorization: 'Bearer local' } });
    const turn = await c.create({ model: MODEL, input: [{ type: 'message', role: 'user', content: 'Count from 1 to 3.' }] });
    c.ws.close();
    return { turns: [turn], problems: terminalResponse(turn)?.status === 'completed' ? [] : ['turn did not complete'] };
  },

  async 'websocket-sequential-responses'() {
    const c = await Connection.open(socketUrl(), { headers: { Authorization: 'Bearer local' } });
    const first = await c.create({ model: MODEL, store: false, input: 'Reply with exactly: first' });
    const second = await c.create({ model: MODEL, store: false, input: 'Reply with exactly: second' });
    c.ws.close();
    const problems = [first, second].flatMap((t, i) => (terminalResponse(t)?.status === 'completed' ? [] : [`turn ${i + 1} did not complete`]));
    return { turns: [first, second], problems };
  },

  async 'websocket-continuation'() {
    const c = await Connection.open(socketUrl(), { headers: { Authorization: 'Bearer local' } });
    const first = await c.create({ model: MODEL, store: false, input: 'Remember the code word: cobalt. Reply with OK.' });
    const id = terminalResponse(first)?.id;
    const second = await c.create({ model: MODEL, store: false, previous_response_id: id, input: 'What is the code word? Reply with only the code word.' });
    c.ws.close();
    const problems = [...(id ? [] : ['first turn has no id']), ...(terminalResponse(second)?.status === 'completed' ? [] : ['continuation did not complete'])];
    return { turns: [first, second], problems };
  },

  async 'websocket-reconnect-store-false-recovery'() {
    const a = await Connection.open(socketUrl(), { headers: { Authorization: 'Bearer local' } });
    const first = await a.create({ model: MODEL, store: false, input: 'Remember the code word: copper. Reply with OK.' });
    a.ws.close();
    const b = await Connection.open(socketUrl(), { headers: { Authorization: 'Bearer local' } });
    const reconnect = await b.create({ model: MODEL, store: false, previous_response_id: terminalResponse(first)?.id, input: 'Try to continue after reconnect. Reply with exactly: reconnected' });
    const recovery = await b.create({
      model: MODEL,
      store: false,
      input: [{ type: 'message', role: 'user', content: 'The previous store:false chain could not continue after reconnect. Start a new response and reply with exactly: recovered' }],
    });
    b.ws.close();
    const problems = [
      ...(errorCode(reconnect) === 'previous_response_not_found' ? [] : [`expected previous_response_not_found, got ${errorCode(reconnect)}`]),
      ...(terminalResponse(recovery)?.status === 'completed' ? [] : ['recovery did not complete']),
    ];
    return { turns: [first, reconnect, recovery], problems };
  },

  async 'websocket-previous-response-not-found'() {
    const c = await Connection.open(socketUrl(), { headers: { Authorization: 'Bearer local' } });
    const turn = await c.create({ model: MODEL, store: false, previous_response_id: `resp_openresponses_missing_${Date.now()}`, input: 'This should fail because the previous response is missing.' });
    c.ws.close();
    return { turns: [turn], problems: errorCode(turn) === 'previous_response_not_found' ? [] : [`expected previous_response_not_found, got ${errorCode(turn)}`] };
  },

  async 'websocket-failed-continuation-evicts-cache'() {
    const c = await Connection.open(socketUrl(), { headers: { Authorization: 'Bearer local' } });
    const first = await c.create({ model: MODEL, store: false, input: 'Remember the code word: ember. Reply with OK.' });
    const id = terminalResponse(first)?.id;
    const failed = await c.create({
      model: MODEL,
      store: false,
      previous_response_id: id,
      input: [{ type: 'function_call_output', call_id: 'call_openresponses_missing', output: 'No matching tool call exists in the previous response.' }],
    });
    const retry = await c.create({ model: MODEL, store: false, previous_response_id: id, input: 'Try to continue after the failed turn. Reply with exactly: stale' });
    c.ws.close();
    const failedTurn = failed.at(-1)?.type === 'error' || errorCode(failed) !== null || terminalResponse(failed)?.status === 'failed';
    const problems = [...(failedTurn ? [] : ['the continuation did not fail']), ...(errorCode(retry) === 'previous_response_not_found' ? [] : [`expected eviction, got ${errorCode(retry)}`])];
    return { turns: [first, failed, retry], problems };
  },

  async 'websocket-compact-new-chain'() {
    const compacted = await fetch(`${location.origin}/v1/responses/compact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer local' },
      body: JSON.stringify({
        model: MODEL,
        input: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Remember the compaction code word: slate.' }] },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'OK.' }] },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Compress this conversation for later continuation.' }] },
        ],
      }),
    });
    if (!compacted.ok) return { turns: [], problems: [`compact answered ${compacted.status}: ${await compacted.text()}`] };
    const { output } = (await compacted.json()) as { output: object[] };
    const c = await Connection.open(socketUrl(), { headers: { Authorization: 'Bearer local' } });
    const turn = await c.create({ model: MODEL, store: false, input: [...output, { type: 'message', role: 'user', content: 'Continue from here. Reply with exactly: compacted' }], tools: [] });
    c.ws.close();
    return { turns: [turn], problems: terminalResponse(turn)?.status === 'completed' ? [] : ['turn did not complete'] };
  },
};
