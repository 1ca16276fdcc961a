/**
 * Runtime side of the Python sandbox: drives the sandbox frame over its MessagePort,
 * starts interpreters (one Python worker each) and runs code in them under a time limit.
 *
 * The worker is untrusted: model code can post any message a worker can (through
 * pyodide's `js` module) and rewrite the worker's own handlers. So a worker's `done` is a
 * claim, not the end of the call. The call ends when, before the time limit, a valid and
 * bounded `done` has arrived *and* the worker has then answered a `ping` carrying a random
 * nonce — which only a worker whose event loop is free can do, so code still running
 * (a forged `done` followed by a loop, `asyncio.ensure_future(spin())`) is caught; or when
 * the limit passes, and then the worker is stopped. Between calls the worker is pinged
 * every few seconds and stopped when it does not answer, or when it posts anything else
 * (code left running in the background); its next call then says the state was lost.
 *
 * Stopping: where the frame is cross-origin isolated (SharedArrayBuffer), the worker is
 * first interrupted (KeyboardInterrupt; the state is kept) and terminated if it does not
 * stop within `interruptGraceMs`; otherwise — a page served without COOP/COEP, or a
 * browser without isolation — the worker is terminated and the state is lost, which the
 * error tells the model.
 *
 * Not caught (a page has no CPU clock per worker): background code that keeps yielding to
 * the event loop, e.g. `while True: await asyncio.sleep(0)`, answers every ping. It ends
 * with its container (idle drop, eviction) — see src/tools/README.md.
 */
import type { CodeRunResult } from '../../ports/tool-ports';
import { listeningTimeout, type ListeningTimeout } from '../../shared/listening-timeout';
import type { Interpreter } from './container-pool';
import { pythonWorkerSource } from './python-worker-main';
import { fromFrameSchema } from './sandbox-message-schema';
import type { FromFrame, PythonWorkerConfig, ToFrame } from './sandbox-protocol';

export interface SandboxLinkOptions {
  /** The port `createPythonSandboxFrame` returned in the page. */
  port: MessagePort;
  /** pyodide's files; called once (again after a failure). */
  files: () => Promise<Record<string, Blob>>;
  config: PythonWorkerConfig;
  /** Per call. */
  timeLimitMs: number;
  /** For pyodide to start in a fresh worker. */
  loadTimeoutMs: number;
  /** After an interrupt, how long to wait for Python to stop before terminating. Default 3 s: a miss costs the state. */
  interruptGraceMs?: number;
  /** How long a worker has to answer the ping after its `done`. Default 2 s. */
  pingTimeoutMs?: number;
  /**
   * How long an idle worker has to answer a ping. Default 10 s: longer than after a call,
   * because a miss costs the user's Python state and a busy machine (a page under load, a
   * CI box with 2 cores) can delay a free worker by seconds; background code still ends
   * within `idlePingMs` + this.
   */
  idlePingTimeoutMs?: number;
  /** Between calls, how often a worker is pinged. Default 5 s. */
  idlePingMs?: number;
}

export class SandboxLink {
  readonly #routes = new Map<string, (message: FromFrame) => void>();
  #init: Promise<void> | undefined;
  #workers = 0;

  constructor(readonly options: SandboxLinkOptions) {
    const schema = fromFrameSchema(options.config);
    options.port.onmessage = (event: MessageEvent<unknown>) => {
      const parsed = schema.safeParse(event.data);
      if (parsed.success) this.#routes.get(parsed.data.worker)?.(parsed.data);
    };
  }

  post(message: ToFrame): void {
    this.options.port.postMessage(message);
  }

  route(worker: string, handler: ((message: FromFrame) => void) | undefined): void {
    if (handler) this.#routes.set(worker, handler);
    else this.#routes.delete(worker);
  }

  /** Starts a Python worker and resolves once pyodide is up in it. */
  async spawn(signal: AbortSignal): Promise<Interpreter> {
    await this.#initOnce();
    const worker = `py${++this.#workers}`;
    const loadSeconds = this.options.loadTimeoutMs / 1000;
    return new Promise<Interpreter>((resolve, reject) => {
      const settle = (error: Error | null, interpreter?: () => Interpreter) => {
        timer?.clear();
        signal.removeEventListener('abort', onAbort);
        this.route(worker, undefined);
        if (error) {
          this.post({ kind: 'kill', worker });
          reject(error);
        } else resolve(interpreter!()); // after the route is cleared: the interpreter takes it over
      };
      const onAbort = () => settle(signal.reason instanceof Error ? signal.reason : new Error('Python start was cancelled'));
      const timer = listeningTimeout(() => settle(new Error(`Python did not start within ${loadSeconds} s`)), this.options.loadTimeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.route(worker, (message) => {
        if (message.kind === 'ready') settle(null, () => new SandboxInterpreter(this, worker, message.interruptible));
        else if (message.kind === 'failed') settle(new Error(message.message));
      });
      this.post({ kind: 'spawn', worker });
    });
  }

  #initOnce(): Promise<void> {
    this.#init ??= this.options.files().then(
      (files) => this.post({ kind: 'init', workerSource: pythonWorkerSource(), files, config: this.options.config }),
      (error: unknown) => {
        this.#init = undefined; // try again on the next call (e.g. back online)
        throw error;
      },
    );
    return this.#init;
  }
}

const STATE_LOST = 'The Python state was lost: the next call starts a fresh interpreter, so run imports and definitions again.';

/** Unguessable: Python cannot answer a ping before it has received it. */
function nonce(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

class SandboxInterpreter implements Interpreter {
  #calls = 0;
  #disposed = false;
  /** Set when the worker was stopped between calls: what the next call says. */
  #stoppedWhy: string | undefined;
  #idle: { interval: ReturnType<typeof setInterval>; deadline?: ListeningTimeout } | undefined;

  constructor(
    private readonly link: SandboxLink,
    private readonly worker: string,
    private readonly interruptible: boolean,
  ) {
    this.#watchIdle();
  }

  run(code: string, signal: AbortSignal): Promise<{ result: CodeRunResult; alive: boolean }> {
    if (this.#stoppedWhy || this.#disposed) {
      return Promise.resolve({ result: { logs: '', images: [], error: `${this.#stoppedWhy ?? 'The Python interpreter was stopped.'} ${STATE_LOST}` }, alive: false });
    }
    this.#stopIdleWatch();
    const call = ++this.#calls;
    const { timeLimitMs, interruptGraceMs = 3000, pingTimeoutMs = 2000, config } = this.link.options;
    const seconds = timeLimitMs / 1000;
    const deadline = Date.now() + timeLimitMs;
    let logs = '';
    let interrupted = false;
    /** The worker's claim that the call is done, waiting for its answer to `ping`. */
    let claimed: { answer: Extract<FromFrame, { kind: 'done' }>; nonce: string } | undefined;
    let timer: ListeningTimeout | undefined;
    let reinterrupt: ReturnType<typeof setTimeout> | undefined;
    return new Promise((resolve) => {
      const finish = (result: Omit<CodeRunResult, 'logs'>, alive: boolean) => {
        timer?.clear();
        clearTimeout(reinterrupt);
        signal.removeEventListener('abort', onAbort);
        this.link.route(this.worker, undefined);
        if (alive) this.#watchIdle();
        else this.dispose();
        resolve({ result: { logs, ...result }, alive });
      };
      const lost = (why: string) => finish({ images: [], error: `${why} ${STATE_LOST}` }, false);
      const onAbort = () => lost('The run was cancelled.');
      const onLimit = () => {
        if (claimed) return lost(`Execution stopped: the call returned, but Python kept running (code left running after the call, e.g. asyncio.ensure_future, does not count as finished); it did not stop within the ${seconds} s time limit.`);
        if (!this.interruptible || interrupted) {
          return lost(`Execution stopped: the code ran longer than the ${seconds} s time limit${interrupted ? ' and did not stop when interrupted' : ''}.`);
        }
        interrupted = true;
        this.link.post({ kind: 'interrupt', worker: this.worker });
        // Once more halfway through the grace, if nothing came back: pyodide clears the flag
        // when it raises, so a second one only matters if the first was never seen (a lost
        // interrupt costs the state); one landing in the traceback's printing still ends the
        // call with the state kept (the worker answers done either way).
        reinterrupt = setTimeout(() => {
          if (!claimed) this.link.post({ kind: 'interrupt', worker: this.worker });
        }, interruptGraceMs / 2);
        timer = listeningTimeout(onLimit, interruptGraceMs);
      };
      timer = listeningTimeout(onLimit, timeLimitMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.link.route(this.worker, (message) => {
        if (message.kind === 'failed') return lost(`The Python sandbox stopped unexpectedly (${message.message}).`);
        if (message.kind === 'pong') {
          if (!claimed || message.nonce !== claimed.nonce) return;
          const { error, images, imagesDropped } = claimed.answer;
          if (imagesDropped > 0) logs += `\n[${imagesDropped} figure(s) dropped: more than ${config.maxImageChars} characters of images in one call]\n`;
          const stopped = `Execution stopped: the code ran longer than the ${seconds} s time limit (KeyboardInterrupt). The Python state is kept.`;
          return finish({ images, error: interrupted ? stopped : error }, true);
        }
        // After a claim, nothing more of this call is taken (the first `done` counts).
        if (message.kind === 'ready' || message.call !== call || claimed) return;
        if (message.kind === 'output') logs += message.text.slice(0, Math.max(0, config.maxOutputChars + 200 - logs.length));
        else if (message.kind === 'done') {
          claimed = { answer: message, nonce: nonce() };
          this.link.post({ kind: 'ping', worker: this.worker, nonce: claimed.nonce });
          // A worker that is really done answers at once; it gets the rest of the limit,
          // and at least `pingTimeoutMs`, so a busy machine does not cost a good state.
          timer?.clear();
          timer = listeningTimeout(onLimit, Math.max(deadline - Date.now(), pingTimeoutMs) + (interrupted ? interruptGraceMs : 0));
        }
      });
      this.link.post({ kind: 'run', worker: this.worker, call, code });
    });
  }

  dispose(): void {
    this.#stopIdleWatch();
    if (this.#disposed) return;
    this.#disposed = true;
    this.link.route(this.worker, undefined);
    this.link.post({ kind: 'kill', worker: this.worker });
  }

  /**
   * Between calls nothing of the model's may run. A worker that misses a ping (its event
   * loop is busy), or posts anything but the answer (output of code left running), is
   * stopped; the next call says why.
   */
  #watchIdle(): void {
    const { idlePingTimeoutMs = 10_000, idlePingMs = 5000 } = this.link.options;
    let expected: string | undefined;
    const stop = (why: string) => {
      this.#stoppedWhy = why;
      this.dispose();
    };
    const background = 'The Python interpreter was stopped between calls: code from an earlier call kept running in the background';
    this.link.route(this.worker, (message) => {
      if (message.kind === 'pong') {
        if (message.nonce !== expected) return;
        expected = undefined;
        this.#idle?.deadline?.clear();
      } else if (message.kind === 'failed') stop(`The Python sandbox stopped unexpectedly (${message.message}).`);
      else stop(`${background} (it sent ${message.kind === 'output' ? 'output' : `a "${message.kind}" message`} while idle).`);
    });
    const ping = () => {
      if (expected) return; // the last one is still out; its deadline decides
      expected = nonce();
      this.link.post({ kind: 'ping', worker: this.worker, nonce: expected });
      this.#idle!.deadline = listeningTimeout(() => stop(`${background} (it did not answer within ${idlePingTimeoutMs / 1000} s).`), idlePingTimeoutMs);
    };
    this.#idle = { interval: setInterval(ping, idlePingMs) };
    ping(); // at once, too: code scheduled by the call may already be running
  }

  #stopIdleWatch(): void {
    if (!this.#idle) return;
    clearInterval(this.#idle.interval);
    this.#idle.deadline?.clear();
    this.#idle = undefined;
    this.link.route(this.worker, undefined);
  }
}
