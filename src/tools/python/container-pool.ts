/**
 * Containers for the code interpreter: one Python interpreter per `container_id` (one per
 * conversation), so variables and imports persist across calls and turns.
 *
 * - Calls in one container run one after another, in arrival order.
 * - A container idle for `idleMs` is dropped with its interpreter (memory: each pyodide
 *   holds tens of MB).
 * - At most `maxContainers` live at once; a new one evicts the least recently used idle one.
 * - An interpreter that died (time limit, crash, cancel) is replaced by a fresh one on the
 *   container's next call; the call that lost it says so in its error.
 * - With `warmSpare`, once Python has been used one interpreter is kept loading ahead, so
 *   the next new conversation does not wait the several seconds pyodide takes to start.
 */
import type { CodeInterpreterPort, CodeRunResult } from '../../ports/tool-ports';

export interface Interpreter {
  /** Runs code; `alive` is false when the interpreter is gone afterwards (state lost). */
  run(code: string, signal: AbortSignal): Promise<{ result: CodeRunResult; alive: boolean }>;
  dispose(): void;
}

export interface ContainerPoolOptions {
  /** Starts a fresh interpreter (rejects with an Error saying why it could not). */
  spawn(signal: AbortSignal): Promise<Interpreter>;
  /** Default 20 minutes. */
  idleMs?: number;
  /** Default 4. A warm spare comes on top. */
  maxContainers?: number;
  /** Default true. */
  warmSpare?: boolean;
}

interface Container {
  /** Unset until the next call starts one (also after the previous one died). */
  interpreter?: Promise<Interpreter>;
  /** The last queued call; the next one starts after it. */
  tail: Promise<unknown>;
  busy: number;
  idleTimer?: ReturnType<typeof setTimeout>;
}

export class ContainerPool implements CodeInterpreterPort {
  readonly #options: Required<Omit<ContainerPoolOptions, 'spawn'>> & Pick<ContainerPoolOptions, 'spawn'>;
  /** In least-recently-used-first order (an entry is re-inserted on use). */
  readonly #containers = new Map<string, Container>();
  readonly #closed = new AbortController();
  #spare?: Promise<Interpreter>;

  constructor(options: ContainerPoolOptions) {
    this.#options = { idleMs: 20 * 60_000, maxContainers: 4, warmSpare: true, ...options };
  }

  /** Container ids with a live (or starting) interpreter, least recently used first. */
  live(): string[] {
    return [...this.#containers].filter(([, c]) => c.interpreter).map(([id]) => id);
  }

  async run(code: string, { containerId, signal }: { containerId: string; signal: AbortSignal }): Promise<CodeRunResult> {
    const container = this.#use(containerId);
    container.busy++;
    const turn = container.tail.then(() => this.#runIn(container, code, signal));
    container.tail = turn.catch(() => {}); // the caller sees the failure; the queue goes on
    try {
      return await turn;
    } finally {
      container.busy--;
      if (container.busy === 0 && this.#containers.get(containerId) === container) this.#scheduleIdle(containerId, container);
    }
  }

  /** Stops every interpreter (runtime shutdown). */
  close(): void {
    this.#closed.abort(new Error('The code interpreter was shut down.'));
    for (const id of [...this.#containers.keys()]) this.#drop(id);
    this.#disposeSpare();
  }

  #use(containerId: string): Container {
    let container = this.#containers.get(containerId);
    if (container) {
      this.#containers.delete(containerId);
      clearTimeout(container.idleTimer);
    } else {
      this.#evictFor();
      container = { tail: Promise.resolve(), busy: 0 };
    }
    this.#containers.set(containerId, container);
    return container;
  }

  async #runIn(container: Container, code: string, signal: AbortSignal): Promise<CodeRunResult> {
    if (signal.aborted) return failure('The run was cancelled before it started.');
    const starting = (container.interpreter ??= this.#take());
    let interpreter: Interpreter;
    try {
      interpreter = await untilAborted(starting, signal);
    } catch (error) {
      if (signal.aborted) return failure('The run was cancelled while Python was starting.');
      if (container.interpreter === starting) container.interpreter = undefined; // try again next call
      return failure(`The Python sandbox could not start: ${message(error)}`);
    }
    const { result, alive } = await interpreter.run(code, signal);
    if (!alive && container.interpreter === starting) container.interpreter = undefined;
    return result;
  }

  /** The warm spare if there is one, else a fresh interpreter; then warms the next spare. */
  #take(): Promise<Interpreter> {
    const taken = this.#spare ?? this.#spawn();
    this.#spare = undefined;
    if (this.#options.warmSpare) {
      // After the taken one is up: two pyodides loading at once only slow each other down.
      const spare = taken.catch(() => undefined).then(() => this.#spawn());
      spare.catch(() => {}); // a failed spare is reported when a container takes it
      this.#spare = spare;
    }
    return taken;
  }

  #spawn(): Promise<Interpreter> {
    if (this.#closed.signal.aborted) return Promise.reject(this.#closed.signal.reason as Error);
    return this.#options.spawn(this.#closed.signal);
  }

  #evictFor(): void {
    let live = this.live().length;
    for (const [id, container] of this.#containers) {
      if (live < this.#options.maxContainers) return;
      if (container.busy === 0 && container.interpreter) {
        this.#drop(id);
        live--;
      }
    }
  }

  #scheduleIdle(containerId: string, container: Container): void {
    clearTimeout(container.idleTimer);
    container.idleTimer = setTimeout(() => {
      if (this.#containers.get(containerId) !== container || container.busy > 0) return;
      this.#drop(containerId);
      if (this.#containers.size === 0) this.#disposeSpare(); // nobody is using Python any more
    }, this.#options.idleMs);
  }

  #drop(containerId: string): void {
    const container = this.#containers.get(containerId);
    if (!container) return;
    this.#containers.delete(containerId);
    clearTimeout(container.idleTimer);
    dispose(container.interpreter);
    container.interpreter = undefined;
  }

  #disposeSpare(): void {
    dispose(this.#spare);
    this.#spare = undefined;
  }
}

function dispose(interpreter: Promise<Interpreter> | undefined): void {
  interpreter?.then(
    (i) => i.dispose(),
    () => {}, // never started: nothing to stop
  );
}

function failure(error: string): CodeRunResult {
  return { logs: '', images: [], error };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `promise`, or a rejection as soon as `signal` aborts (the promise itself goes on). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
