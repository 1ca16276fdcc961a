/**
 * Messages of the Python sandbox (types only). Three parties:
 *
 *   runtime worker ──MessagePort──► sandbox frame (opaque origin) ──postMessage──► Python worker
 *
 * The frame is a sandboxed iframe the leader page creates; the runtime drives it over a
 * MessagePort the page handed over. The frame starts one Python worker per interpreter
 * and relays; everything a worker sends is untrusted (model-written code can post
 * messages too) and is re-built field by field before it goes on.
 */

/** Python settings the frame passes to each worker. */
export interface PythonWorkerConfig {
  /**
   * Where pyodide packages (numpy, …) are downloaded from when code imports them, e.g.
   * `https://cdn.jsdelivr.net/pyodide/v314.0.7/full/`. Unset: standard library only, and
   * the sandbox has no network at all.
   */
  packageBaseUrl?: string;
  /** stdout+stderr kept per call; the rest is dropped with a note. */
  maxOutputChars: number;
  /** Figures (PNG data URLs) kept per call, all together; the rest are dropped with a note. */
  maxImageChars: number;
  /** A call's error line is cut to this. */
  maxErrorChars: number;
}

export type ToFrame =
  /** Sent once, before the first spawn: the worker's code and pyodide's files. */
  | { kind: 'init'; workerSource: string; files: Record<string, Blob>; config: PythonWorkerConfig }
  | { kind: 'spawn'; worker: string }
  | { kind: 'run'; worker: string; call: number; code: string }
  /** Raise KeyboardInterrupt in the worker (only when it reported `interruptible`). */
  | { kind: 'interrupt'; worker: string }
  /** Asks the worker to answer `pong` with `nonce`: only a worker whose event loop is free can. */
  | { kind: 'ping'; worker: string; nonce: string }
  | { kind: 'kill'; worker: string };

export type FromFrame =
  | { kind: 'ready'; worker: string; interruptible: boolean }
  /** The worker could not start, or died. */
  | { kind: 'failed'; worker: string; message: string }
  | { kind: 'output'; worker: string; call: number; text: string }
  /**
   * The worker *says* the call is done. Python can post this too, so it is a claim: the
   * runtime ends the call only after the worker also answers a `ping` (see sandbox-link.ts).
   */
  | { kind: 'done'; worker: string; call: number; error: string | null; images: string[]; imagesDropped: number }
  | { kind: 'pong'; worker: string; nonce: string };

/** What the frame sends a Python worker. */
export type ToWorker =
  | { kind: 'load'; files: Record<string, Blob>; config: PythonWorkerConfig; interrupt: SharedArrayBuffer | null }
  | { kind: 'run'; call: number; code: string }
  | { kind: 'ping'; nonce: string };

/** The page's first message to the frame, carrying the port in `ports[0]`. */
export const SANDBOX_HELLO = 'local-responses/python-sandbox';
