/**
 * Runtime side of the Python sandbox: drives the sandbox frame over its MessagePort,
 * starts interpreters (one Python worker each) and runs code in them under a time limit.
 *
 * Time limit: where the frame is cross-origin isolated (SharedArrayBuffer), the worker is
 * interrupted (KeyboardInterrupt; the state is kept); otherwise — the usual case, since the
 * app is not served with COOP/COEP — the worker is terminated and the state is lost, which
 * the error tells the model.
 */
import type { CodeRunResult } from '../../server/tool-ports';
import type { Interpreter } from './container-pool';
import { pythonWorkerSource } from './python-worker-main';
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
  /** After an interrupt, how long to wait for Python to stop before terminating. Default 2 s. */
  interruptGraceMs?: number;
}

export class SandboxLink {
  readonly #routes = new Map<string, (message: FromFrame) => void>();
  #init: Promise<void> | undefined;
  #workers = 0;

  constructor(readonly options: SandboxLinkOptions) {
    options.port.onmessage = (event: MessageEvent<FromFrame>) => {
      const worker = (event.data as { worker?: unknown } | null)?.worker;
      if (typeof worker === 'string') this.#routes.get(worker)?.(event.data);
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
      const settle = (error: Error | null, interpreter?: Interpreter) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.route(worker, undefined);
        if (error) {
          this.post({ kind: 'kill', worker });
          reject(error);
        } else resolve(interpreter!);
      };
      const onAbort = () => settle(signal.reason instanceof Error ? signal.reason : new Error('Python start was cancelled'));
      const timer = setTimeout(() => settle(new Error(`Python did not start within ${loadSeconds} s`)), this.options.loadTimeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.route(worker, (message) => {
        if (message.kind === 'ready') settle(null, new SandboxInterpreter(this, worker, message.interruptible));
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

class SandboxInterpreter implements Interpreter {
  #calls = 0;
  #disposed = false;

  constructor(
    private readonly link: SandboxLink,
    private readonly worker: string,
    private readonly interruptible: boolean,
  ) {}

  run(code: string, signal: AbortSignal): Promise<{ result: CodeRunResult; alive: boolean }> {
    const call = ++this.#calls;
    const { timeLimitMs, interruptGraceMs = 2000, config } = this.link.options;
    const seconds = timeLimitMs / 1000;
    let logs = '';
    let interrupted = false;
    let grace: ReturnType<typeof setTimeout> | undefined;
    return new Promise((resolve) => {
      const finish = (result: Omit<CodeRunResult, 'logs'>, alive: boolean) => {
        clearTimeout(timer);
        clearTimeout(grace);
        signal.removeEventListener('abort', onAbort);
        this.link.route(this.worker, undefined);
        if (!alive) this.dispose();
        resolve({ result: { logs, ...result }, alive });
      };
      const lost = (why: string) => finish({ images: [], error: `${why} The Python state was lost: the next call starts a fresh interpreter, so run imports and definitions again.` }, false);
      const onAbort = () => lost('The run was cancelled.');
      const timer = setTimeout(() => {
        if (!this.interruptible) return lost(`Execution stopped: the code ran longer than the ${seconds} s time limit.`);
        interrupted = true;
        this.link.post({ kind: 'interrupt', worker: this.worker });
        grace = setTimeout(() => lost(`Execution stopped: the code ran longer than the ${seconds} s time limit and did not stop when interrupted.`), interruptGraceMs);
      }, timeLimitMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.link.route(this.worker, (message) => {
        if (message.kind === 'failed') return lost(`The Python sandbox stopped unexpectedly (${message.message}).`);
        if (!('call' in message) || message.call !== call) return;
        if (message.kind === 'output') logs += message.text.slice(0, Math.max(0, config.maxOutputChars + 200 - logs.length));
        else if (message.kind === 'done') {
          const error = interrupted ? `Execution stopped: the code ran longer than the ${seconds} s time limit (KeyboardInterrupt). The Python state is kept.` : message.error;
          finish({ images: message.images, error }, true);
        }
      });
      this.link.post({ kind: 'run', worker: this.worker, call, code });
    });
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.link.route(this.worker, undefined);
    this.link.post({ kind: 'kill', worker: this.worker });
  }
}
