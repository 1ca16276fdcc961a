/**
 * One engine generates one response at a time; the rest wait here, first in, first out.
 * Leaving the queue (cancel, delete, client gone) is aborting the signal passed to `acquire`.
 */
import { abortReason } from '../shared/abort';
export class EngineQueue {
  private busy = false;
  private waiting: Array<{ grant: () => void }> = [];

  get idle(): boolean {
    return !this.busy && this.waiting.length === 0;
  }

  /** Resolves with a release function once it is this caller's turn; rejects if `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          this.busy = true;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.release();
          });
        },
      };
      const onAbort = () => {
        this.waiting = this.waiting.filter((w) => w !== entry);
        reject(abortReason(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
      this.pump();
    });
  }

  private release(): void {
    this.busy = false;
    this.pump();
  }

  private pump(): void {
    if (this.busy) return;
    this.waiting.shift()?.grant();
  }
}
