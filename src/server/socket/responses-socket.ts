/**
 * WebSocket mode of `/v1/responses`: one connection, a `response.create` frame per turn,
 * every stream event back as a JSON text frame. A turn is the create path itself —
 * `prepareRequest` → `finalPlan` → `startRun`, shown through `presentStream` — so a response
 * made here is an ordinary one (stored, retrievable, listed, in its conversation); only the
 * transport differs. What the connection adds (protocol in `protocol/socket-frames.ts`):
 *
 * - lanes: frames of one `stream_id` run in order, lanes side by side (the engine still
 *   generates one response at a time; a waiting turn is `queued`);
 * - a cache of each lane's latest `store: false` response, so such chains continue on the
 *   connection (`chain-cache.ts`); an id it does not hold, and storage does not either, is
 *   `previous_response_not_found`;
 * - a refused turn is an `error` frame, and the connection stays usable;
 * - the connection lives 60 minutes: a turn sent later is refused with
 *   `websocket_connection_limit_reached`, and the connection closes (1000) once idle;
 * - when the client end goes away, its running turns stop as an HTTP client's disconnect
 *   stops them (`incomplete`);
 * - `response.steer` queues input for a running turn, which ends `steered` and is followed on
 *   its lane by a successor with that input (`steering.ts`).
 */
import type { SocketListener, SocketPeer } from '../../ports/socket-peer';
import type { ResponseObject } from '../../protocol/response-object';
import { errorFrame, FrameError, MAX_SOCKET_LANES, MAX_SOCKET_TURNS, readClientFrame, SOCKET_LIFETIME_MS, WS_CLOSE, type ResponseCreateFrame, type SteerFrame } from '../../protocol/socket-frames';
import { TERMINAL_EVENT_TYPES, type StreamEvent } from '../../protocol/stream-events';
import type { StoredItem } from '../../protocol/output-items';
import { invalidRequest, toApiErrorData, type ApiErrorData } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { presentStream } from '../output/present';
import { finalPlan, prepareRequest, type PreparedRequest } from '../request/prepare-request';
import { startRun } from '../run/start-run';
import { warmUp } from '../run/warm-up';
import type { ResponseRun } from '../run/response-run';
import type { ServerState } from '../state/server-state';
import { ChainCache } from './chain-cache';
import { Steering, type SteeredTurn } from './steering';
import { conversationIdOf } from '../request/request-context';

export interface SocketOptions {
  /** How long the connection may live (default 60 minutes, as on OpenAI). */
  lifetimeMs?: number;
}

/** The default lane: frames without a `stream_id`. */
const DEFAULT_LANE = '';

const LIMIT_MESSAGE = 'Responses websocket connection limit reached (60 minutes). Create a new websocket connection to continue.';

export class ResponsesSocket implements SocketListener {
  private readonly queues = new Map<string, ResponseCreateFrame[]>();
  private readonly running = new Set<string>();
  /** Turns queued or running, over all lanes. */
  private turns = 0;
  private readonly cache = new ChainCache();
  /** Aborted when the connection ends: running turns stop. */
  private readonly ending = new AbortController();
  private expired = false;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly steering = new Steering((event) => this.send(event));

  constructor(
    private readonly state: ServerState,
    private readonly peer: SocketPeer,
    options: SocketOptions = {},
    /** Told once the connection has ended, either way. */
    private readonly onEnd: () => void = () => {},
  ) {
    const lifetimeMs = options.lifetimeMs ?? SOCKET_LIFETIME_MS;
    this.timer = setTimeout(() => {
      this.expired = true;
      if (this.turns === 0) this.end(WS_CLOSE.normal, 'connection limit reached');
    }, lifetimeMs);
  }

  get ended(): boolean {
    return this.ending.signal.aborted;
  }

  message(data: string | ArrayBuffer): void {
    if (this.ended) return;
    let frame: ResponseCreateFrame | SteerFrame;
    try {
      frame = readClientFrame(data);
    } catch (err) {
      if (!(err instanceof FrameError)) throw err;
      this.sendError(err.data, err.streamId);
      return;
    }
    // Steering acts on a running turn at once: it is no turn of its own, and never queued behind one.
    if ('steer' in frame) return this.steering.submit(frame.steer);
    if (this.expired) {
      this.sendError({ ...invalidRequest(LIMIT_MESSAGE, null, Codes.websocketConnectionLimitReached).data }, frame.streamId);
      return;
    }
    const lane = frame.streamId ?? DEFAULT_LANE;
    const named = [...this.queues.keys()].filter((l) => l !== DEFAULT_LANE).length;
    if (this.turns >= MAX_SOCKET_TURNS || (!this.queues.has(lane) && lane !== DEFAULT_LANE && named >= MAX_SOCKET_LANES)) {
      const message = `Too many turns at once on this connection (at most ${MAX_SOCKET_TURNS} queued or running, over at most ${MAX_SOCKET_LANES} stream_id lanes). Wait for a turn to end, or open another connection.`;
      this.sendError(invalidRequest(message, 'stream_id', Codes.websocketStreamLimitReached).data, frame.streamId);
      return;
    }
    let queue = this.queues.get(lane);
    if (!queue) this.queues.set(lane, (queue = []));
    queue.push(frame);
    this.turns++;
    void this.drain(lane);
  }

  closed(): void {
    this.finish();
  }

  /** Closes the connection from this side. */
  end(code: number, reason: string): void {
    if (this.ended) return;
    this.finish();
    this.peer.close(code, reason);
  }

  private finish(): void {
    if (this.ended) return;
    clearTimeout(this.timer);
    this.ending.abort();
    this.onEnd();
  }

  /** Runs `lane`'s frames one after another, unless it already is. */
  private async drain(lane: string): Promise<void> {
    if (this.running.has(lane)) return;
    this.running.add(lane);
    const queue = this.queues.get(lane)!;
    for (let frame = queue.shift(); frame && !this.ended; frame = queue.shift()) {
      await this.turn(frame);
      this.turns--;
    }
    this.running.delete(lane);
    if (this.expired && this.turns === 0) this.end(WS_CLOSE.normal, 'connection limit reached');
  }

  /** A client's turn, then the successors steering gives it, one after another on its lane. */
  private async turn(sent: ResponseCreateFrame): Promise<void> {
    let next: SteeredTurn | null = this.steering.continuing(sent);
    while (next && !this.ended) next = await this.runTurn(next);
  }

  /** One turn; returns the successor that steering starts from its response, if any. */
  private async runTurn(steered: SteeredTurn): Promise<SteeredTurn | null> {
    const { frame } = steered;
    const lane = frame.streamId;
    const previous = typeof frame.body.previous_response_id === 'string' ? frame.body.previous_response_id : null;
    let ended: ResponseObject | null = null;
    let id: string | null = null;
    try {
      // `stream: true`: the turn is a streamed response (its event log is kept, for a resume over HTTP).
      const prepared = await prepareRequest(this.state, { ...frame.body, stream: true }, this.ending.signal, {
        cachedChain: (id) => this.cache.items(id),
        allowEmptyInput: !frame.generate,
      });
      let events: AsyncIterable<StreamEvent>;
      if (frame.generate) {
        const run = await this.generate(prepared);
        id = run.id;
        // Created: the steering input this turn carries is committed.
        this.steering.running(run.id, { lane, body: frame.body, run, unsupported: steeringUnsupported(prepared) });
        events = run.log.follow(-1);
      } else events = fromArray((await warmUp(this.state, prepared)).events);
      // The cache learns how the turn ended before the client does: a frame sent the moment
      // the terminal event arrives (on any lane) must find the response there.
      const settled = tap(events, (event) => {
        if (!TERMINAL_EVENT_TYPES.has(event.type)) return;
        this.settle(lane ?? DEFAULT_LANE, prepared, (ended = (event as { response: ResponseObject }).response), previous);
        if (id) this.steering.ending(id);
      });
      for await (const event of presentStream(settled, { include: prepared.plan.include, sealer: this.state.sealer, tools: this.state.tools })) {
        this.send(lane ? { ...event, stream_id: lane } : event);
        if (id) this.steering.saw(id, event.sequence_number);
      }
    } catch (err) {
      // A continuation that failed evicts what it continued (as on OpenAI): it is not retried from there.
      if (previous) this.cache.evict(previous);
      const data = toApiErrorData(err);
      if (!id) this.steering.notCommitted(steered, data.message);
      // A successor no client asked for answers in its steering events only.
      if (!steered.automatic) this.sendError(data, lane);
    }
    // A warm-up's response too: steering it afterwards is `response_already_completed`.
    return ended ? this.steering.finished((ended as ResponseObject).id, ended) : null;
  }

  /** A turn ended: a `store: false` response that stands is its lane's latest; a failed continuation evicts what it continued. */
  private settle(lane: string, prepared: PreparedRequest, response: ResponseObject, previous: string | null): void {
    if (response.status === 'completed' || response.status === 'incomplete') {
      if (!response.store) this.cache.remember(lane, response.id, chainOf(prepared, response));
    } else if (previous) this.cache.evict(previous);
  }

  private async generate(prepared: PreparedRequest): Promise<ResponseRun> {
    const { plan } = await finalPlan(this.state, prepared, this.ending.signal);
    // A turn's stream stays retrievable over HTTP once it has finished (its log is kept).
    const { run } = await startRun(this.state, prepared, plan, { keepLog: true });
    // The client went away: its turn stops as a disconnected HTTP stream does.
    const stop = () => run.stop('disconnect');
    this.ending.signal.addEventListener('abort', stop, { once: true });
    void run.done.finally(() => this.ending.signal.removeEventListener('abort', stop));
    return run;
  }

  private send(event: object): void {
    if (!this.ended) this.peer.send(JSON.stringify(event));
  }

  private sendError(data: ApiErrorData, lane: string | null): void {
    this.send(errorFrame(data, lane));
  }
}

/** Why a turn's response cannot be steered (as on OpenAI), or null. */
function steeringUnsupported(prepared: PreparedRequest): string | null {
  if (conversationIdOf(prepared.request) !== null) return 'A response bound to a conversation cannot be steered. Steer responses chained with previous_response_id.';
  if (prepared.request.context_management?.length) return 'A response with automatic compaction (context_management) cannot be steered.';
  return null;
}

/** The chain a later turn continues from this response: its history (a chain's, not a conversation's), its input, its output. */
function chainOf(prepared: PreparedRequest, response: ResponseObject): StoredItem[] {
  const history = prepared.request.previous_response_id ? prepared.window.slice(0, prepared.window.length - prepared.input.length) : [];
  return [...history, ...prepared.input, ...response.output];
}

async function* fromArray<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

/** `events`, calling `see` with each one before it is passed on. */
async function* tap<T>(events: AsyncIterable<T>, see: (event: T) => void): AsyncGenerator<T> {
  for await (const event of events) {
    see(event);
    yield event;
  }
}
