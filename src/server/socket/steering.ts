/**
 * Steering on one WebSocket connection (protocol/steer-frames.ts): `response.steer` queues
 * user input for a response of this connection that is still running. Accepted input ends
 * the response at its next token boundary (`incomplete`, reason `steered`, output kept:
 * ResponseRun.steer) and is committed by the successor this class hands the socket — a turn
 * on the target's lane, with the target's settings (its create body as sent), chained to it
 * by `previous_response_id`, whose input is the queued input in submission order. A response
 * that completes before its next boundary gets the same automatic successor.
 *
 * A response that stops for client-owned results (function calls, approvals) keeps the input
 * queued: `response.steer.pending` names the results (`required_input`), and the client's
 * next `response.create` continuing it on that lane gets the queued input prepended.
 * Otherwise (failed, cancelled, cut off) the input comes back in `response.steer.failed`.
 * Responses of a conversation or with automatic compaction are not steered (as on OpenAI).
 */
import type { ResponseObject } from '../../protocol/response-object';
import type { ResponseCreateFrame } from '../../protocol/socket-frames';
import { requiredInput, type SteerErrorCode, type SteerEvent, type SteerInput, type SteerRead, type SteerRequiredInput } from '../../protocol/steer-frames';
import { newId } from '../../shared/ids';

/** Steering input queued for one response at most (`too_many_pending_steers` past it). */
export const MAX_PENDING_STEERS = 8;
/** Ended responses remembered, to answer `response_already_completed` rather than `response_not_found`. */
const ENDED_REMEMBERED = 256;

interface Steer {
  id: string;
  input: SteerInput;
}

/** A response of this connection that can be steered while it runs. */
export interface SteerTarget {
  lane: string | null;
  /** Its create body as sent: what an automatic successor inherits. */
  body: Record<string, unknown>;
  run: { steer(): void };
  /** Why it cannot be steered, if it cannot. */
  unsupported: string | null;
}

interface Entry {
  lane: string | null;
  body: Record<string, unknown>;
  steers: Steer[];
  /** The target's latest event sent (the steering events' `sequence_number`). */
  lastSequence: number;
}

/** A turn to run: a client's create, or a successor; `steers` are committed when its response is created. */
export interface SteeredTurn {
  frame: ResponseCreateFrame;
  steers: readonly Steer[];
  /** Made here (an automatic successor), not sent by the client. */
  automatic: boolean;
  /** The response the steers were queued for. */
  target: string | null;
}

export class Steering {
  /** Running responses; `ended` once their terminal event is on its way (no more input is taken then). */
  private readonly active = new Map<string, Entry & { run: SteerTarget['run']; unsupported: string | null; ended?: true }>();
  /** Responses that completed waiting for client-owned results, with input queued for their continuation. */
  private readonly waiting = new Map<string, Entry & { required: SteerRequiredInput[] }>();
  private readonly finishedIds = new Set<string>();

  constructor(private readonly send: (event: SteerEvent) => void) {}

  /** A turn's response exists and runs. */
  running(id: string, target: SteerTarget): void {
    this.active.set(id, { ...target, steers: [], lastSequence: 0 });
  }

  /** The response's terminal event is about to be sent: steering input that comes later is refused. */
  ending(id: string): void {
    const entry = this.active.get(id);
    if (entry) entry.ended = true;
  }

  /** The response's event `sequence` was sent. */
  saw(id: string, sequence: number): void {
    const entry = this.active.get(id);
    if (entry) entry.lastSequence = sequence;
  }

  submit(read: SteerRead): void {
    if (!read.ok) {
      const lane = this.active.get(read.previousResponseId)?.lane ?? null;
      this.fail({ input: read.input as SteerInput, previous_response_id: read.previousResponseId }, 'invalid_input', read.message, lane, 0);
      return;
    }
    const { previous_response_id: target, input } = read.frame;
    const running = this.active.get(target);
    const entry = running?.ended ? undefined : (running ?? this.waiting.get(target));
    if (!entry) {
      const [code, message]: [SteerErrorCode, string] = this.finishedIds.has(target) || running
        ? ['response_already_completed', `Response '${target}' has finished and no longer accepts steering input. Send a response.create with previous_response_id instead.`]
        : ['response_not_found', `No response '${target}' is running on this connection: only a response created on this WebSocket connection can be steered, while it runs.`];
      this.fail({ input, previous_response_id: target }, code, message, null, 0);
      return;
    }
    const unsupported = 'unsupported' in entry ? entry.unsupported : null;
    if (unsupported) return this.fail({ input, previous_response_id: target }, 'steering_not_supported', unsupported, entry.lane, entry.lastSequence);
    if (entry.steers.length >= MAX_PENDING_STEERS)
      return this.fail(
        { input, previous_response_id: target },
        'too_many_pending_steers',
        `At most ${MAX_PENDING_STEERS} steering submissions can wait for one response; wait for its successor.`,
        entry.lane,
        entry.lastSequence,
      );
    const steer = { id: newId('steer'), input };
    entry.steers.push(steer);
    const ref = { id: steer.id, previous_response_id: target };
    this.send({ type: 'response.steer.accepted', sequence_number: entry.lastSequence, steer: ref, ...lane(entry.lane) });
    if ('run' in entry) entry.run.steer();
    else this.pending(steer, target, entry);
  }

  /**
   * The response `id` ended (its terminal event was sent). Returns the successor to run at
   * once on its lane, when queued input goes on from it.
   */
  finished(id: string, response: ResponseObject): SteeredTurn | null {
    const entry = this.active.get(id);
    this.active.delete(id);
    this.remember(id);
    if (!entry || entry.steers.length === 0) return null;
    const steered = response.status === 'incomplete' && response.incomplete_details?.reason === 'steered';
    const required = response.status === 'completed' ? requiredInput(response) : [];
    if (response.status === 'completed' && required.length > 0) {
      const waiting = { ...entry, required };
      this.waiting.set(id, waiting);
      for (const steer of entry.steers) this.pending(steer, id, waiting);
      return null;
    }
    if (steered || response.status === 'completed') {
      const body = { ...entry.body, previous_response_id: id, input: inputOf(entry.steers) };
      return { frame: { body, generate: true, streamId: entry.lane }, steers: entry.steers, automatic: true, target: id };
    }
    for (const steer of entry.steers)
      this.fail(
        { input: steer.input, previous_response_id: id, id: steer.id },
        'response_not_active',
        `Response '${id}' ended ${response.status} before the steering input could be applied; send it in a new response.create.`,
        entry.lane,
        entry.lastSequence,
      );
    return null;
  }

  /** A client's create: when it continues a response that waits with queued input (on its lane), that input goes first. */
  continuing(frame: ResponseCreateFrame): SteeredTurn {
    const previous = frame.body.previous_response_id;
    const entry = typeof previous === 'string' ? this.waiting.get(previous) : undefined;
    if (!entry || entry.lane !== frame.streamId) return { frame, steers: [], automatic: false, target: null };
    this.waiting.delete(previous as string);
    const own = frame.body.input;
    const input = [...inputOf(entry.steers), ...(typeof own === 'string' ? [{ role: 'user', content: own }] : Array.isArray(own) ? own : [])];
    return { frame: { ...frame, body: { ...frame.body, input } }, steers: entry.steers, automatic: false, target: previous as string };
  }

  /** The turn could not be created: its steering input comes back. */
  notCommitted(turn: SteeredTurn, message: string): void {
    for (const steer of turn.steers)
      this.fail(
        { input: steer.input, previous_response_id: turn.target ?? '', id: steer.id },
        'successor_creation_failed',
        `The response continuing '${turn.target}' could not be created: ${message}`,
        turn.frame.streamId,
        0,
      );
  }

  private pending(steer: Steer, target: string, entry: Entry & { required: SteerRequiredInput[] }): void {
    this.send({
      type: 'response.steer.pending',
      sequence_number: entry.lastSequence,
      reason: 'waiting_for_required_input',
      required_input: entry.required,
      steer: { id: steer.id, previous_response_id: target },
      ...lane(entry.lane),
    });
  }

  private fail(steer: { input: SteerInput; previous_response_id: string; id?: string }, code: SteerErrorCode, message: string, streamId: string | null, sequence: number): void {
    this.send({ type: 'response.steer.failed', sequence_number: sequence, error: { code, message, type: 'invalid_request_error' }, steer, ...lane(streamId) });
  }

  private remember(id: string): void {
    this.finishedIds.add(id);
    if (this.finishedIds.size > ENDED_REMEMBERED) this.finishedIds.delete(this.finishedIds.values().next().value!);
  }
}

function lane(streamId: string | null): { stream_id?: string } {
  return streamId !== null ? { stream_id: streamId } : {};
}

/** The queued input as create input items, in submission order (ids and statuses left to the server). */
function inputOf(steers: readonly Steer[]): Array<Record<string, unknown>> {
  return steers.flatMap((steer): Array<Record<string, unknown>> =>
    typeof steer.input === 'string' ? [{ type: 'message', role: 'user', content: steer.input }] : steer.input.map((m) => ({ type: 'message', role: 'user', content: m.content })),
  );
}
