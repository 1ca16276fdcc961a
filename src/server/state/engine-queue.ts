/**
 * One engine generates one response at a time; the rest wait here, first in, first out.
 * (A remote provider's line lets `concurrency` responses run at once: its server batches.)
 *
 * A response takes its place in line with `reserve()` the moment its status is decided,
 * synchronously: whether it must wait (`queued`, with `response.queued`) or runs at once
 * (`in_progress`) is then true for it and for every request after it, however many awaits
 * (storage writes) come before it actually starts. Leaving the line (cancel, delete, client
 * gone) is aborting the signal passed to `take`, or `leave()` before taking.
 */
import { abortReason } from '../../shared/abort';

export interface QueuePlace {
  /** True when nothing was ahead of this place: it runs as soon as it is taken. */
  readonly first: boolean;
  /** Resolves with a release function once it is this place's turn; rejects if `signal` aborts first. */
  take(signal: AbortSignal): Promise<() => void>;
  /** Gives up the place (or the engine, when it was granted) without running. */
  leave(): void;
}

interface Entry {
  granted: boolean;
  onGrant: (() => void) | null;
}

export class EngineQueue {
  /** Places granted and not yet released. */
  private running = 0;
  private waiting: Entry[] = [];

  /** `concurrency`: how many places may run at once (default one). */
  constructor(private readonly concurrency = 1) {}

  /** Whether a place taken now would run at once. */
  get idle(): boolean {
    return this.running < this.concurrency && this.waiting.length === 0;
  }

  /** Takes the next place in line now. */
  reserve(): QueuePlace {
    const first = this.idle;
    const entry: Entry = { granted: false, onGrant: null };
    this.waiting.push(entry);
    this.pump();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.release();
    };
    const leave = () => {
      if (entry.granted) release();
      else this.waiting = this.waiting.filter((w) => w !== entry);
    };
    return {
      first,
      leave,
      take: (signal) => {
        if (signal.aborted) {
          leave();
          return Promise.reject(abortReason(signal));
        }
        if (entry.granted) return Promise.resolve(release);
        return new Promise((resolve, reject) => {
          const onAbort = () => {
            entry.onGrant = null;
            leave();
            reject(abortReason(signal));
          };
          entry.onGrant = () => {
            signal.removeEventListener('abort', onAbort);
            resolve(release);
          };
          signal.addEventListener('abort', onAbort, { once: true });
        });
      },
    };
  }

  /** `reserve().take(signal)`: waits for a turn from now. */
  acquire(signal: AbortSignal): Promise<() => void> {
    return this.reserve().take(signal);
  }

  private release(): void {
    this.running--;
    this.pump();
  }

  private pump(): void {
    while (this.running < this.concurrency) {
      const next = this.waiting.shift();
      if (!next) return;
      this.running++;
      next.granted = true;
      next.onGrant?.();
    }
  }
}
