/**
 * Programs that wait for a client's answers between requests: a program that called a client
 * function is kept alive — its sandbox holding its state, using no CPU — until the
 * `function_call_output`s come back in a later request (`previous_response_id` or a
 * conversation), as a Python container keeps its interpreter between turns.
 *
 * - Keyed by the program item's `call_id`; taken out while a request drives it, so two
 *   requests can never run one program at once.
 * - A program waiting longer than `idleMs` (default 20 minutes, as a container) is dropped
 *   with its sandbox; at most `max` (default 4) wait at once, the oldest dropped first.
 * - A dropped program's answers, when they come, end it `incomplete`, saying its state was lost.
 */
import type { ProgramSandbox } from '../../ports/tool-ports';

/** A program between requests: its sandbox and the calls it waits on (client `call_id` → the program's call id). */
export interface WaitingProgram {
  sandbox: ProgramSandbox;
  waiting: Map<string, number>;
}

export interface WaitingProgramsOptions {
  idleMs?: number;
  max?: number;
}

export class WaitingPrograms {
  readonly #idleMs: number;
  readonly #max: number;
  /** Oldest first. */
  readonly #programs = new Map<string, { program: WaitingProgram; timer: ReturnType<typeof setTimeout> }>();

  constructor(options: WaitingProgramsOptions = {}) {
    this.#idleMs = options.idleMs ?? 20 * 60_000;
    this.#max = options.max ?? 4;
  }

  /** Keeps a program that waits for the client; the oldest is dropped beyond the limit. */
  keep(callId: string, program: WaitingProgram): void {
    this.drop(callId);
    while (this.#programs.size >= this.#max) this.drop(this.#programs.keys().next().value!);
    const timer = setTimeout(() => this.drop(callId), this.#idleMs);
    // An idle program must not keep a Node process (tests) alive.
    (timer as { unref?: () => void }).unref?.();
    this.#programs.set(callId, { program, timer });
  }

  /** Takes the program out to drive it (undefined: none waits under that id — never kept, or dropped). */
  take(callId: string): WaitingProgram | undefined {
    const kept = this.#programs.get(callId);
    if (!kept) return undefined;
    clearTimeout(kept.timer);
    this.#programs.delete(callId);
    return kept.program;
  }

  /** Ends a waiting program and frees its sandbox. */
  drop(callId: string): void {
    const kept = this.#programs.get(callId);
    if (!kept) return;
    clearTimeout(kept.timer);
    this.#programs.delete(callId);
    kept.program.sandbox.close();
  }

  /** The programs waiting now (ids, oldest first). */
  ids(): string[] {
    return [...this.#programs.keys()];
  }
}
