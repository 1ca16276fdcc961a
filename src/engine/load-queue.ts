/**
 * Model loads and unloads of one engine, one at a time and in order (GPU memory and the
 * wasm worker hold one model). A caller that aborts stops waiting at once; the task it
 * queued still runs to a settled state, so the next one starts clean.
 */
import { abortReason, raceAbort } from '../shared/abort';

const noop = (): void => {};

export class LoadQueue {
  private tail: Promise<void> = Promise.resolve();
  private loads = 0;

  /** A load is queued or running: the loaded model may be about to change. */
  get busy(): boolean {
    return this.loads > 0;
  }

  /**
   * Resolves at once when the model is `loaded` and nothing is queued that could change it;
   * otherwise queues `task` as a load.
   */
  ensure(loaded: boolean, task: () => Promise<void>, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    if (loaded && !this.busy) return Promise.resolve();
    return this.load(task, signal);
  }

  /** Queues a load; the returned promise rejects as soon as `signal` aborts. */
  load(task: () => Promise<void>, signal: AbortSignal): Promise<void> {
    this.loads++;
    const run = this.tail.then(task);
    this.tail = run.then(noop, noop).finally(() => this.loads--);
    return raceAbort(run, signal);
  }

  /** Queues other work (an unload) after everything queued so far. */
  after<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task);
    this.tail = run.then(noop, noop);
    return run;
  }
}
