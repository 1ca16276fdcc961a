/**
 * The event log of one running response, in memory: it numbers events, wakes readers,
 * and hands batches to a persister. Readers can start at any sequence number and follow
 * until the log closes, which is how stream resume replays exactly the missing events.
 *
 * When the log is persisted, readers may be held to a bound (`holdReadersTo`): they see
 * events only up to `ahead` sequence numbers past what the store has taken (`stored`), so
 * what any client saw is never far ahead of what a takeover can recover (UNLOGGED_EVENTS_MAX).
 */
import type { StreamEvent, UnsequencedEvent } from '../../protocol/stream-events';

export class LiveLog {
  readonly events: StreamEvent[] = [];
  private closed = false;
  private wake: Array<() => void> = [];
  /** Events not yet handed to the persister. */
  private unsaved: StreamEvent[] = [];
  /** Readers see events up to this sequence number; everything once the log is closed. */
  private visibleUntil = Infinity;
  private ahead = Infinity;

  get isClosed(): boolean {
    return this.closed;
  }

  append(event: UnsequencedEvent): StreamEvent {
    if (this.closed) throw new Error('append to a closed event log');
    const sequenced = { ...event, sequence_number: this.events.length } as StreamEvent;
    this.events.push(sequenced);
    this.unsaved.push(sequenced);
    this.notify();
    return sequenced;
  }

  /** Readers see at most `ahead` events past the last one `stored` reported. */
  holdReadersTo(ahead: number): void {
    this.ahead = ahead;
    this.visibleUntil = Math.min(this.visibleUntil, ahead - 1);
  }

  /** The store has taken (or given up on) every event up to `sequence`: readers may go on. */
  stored(sequence: number): void {
    const until = sequence + this.ahead;
    if (until <= this.visibleUntil) return;
    this.visibleUntil = until;
    this.notify();
  }

  /** Events appended but not yet handed to the persister. */
  get unsavedCount(): number {
    return this.unsaved.length;
  }

  /** Takes the events appended since the last call (for batched persistence). */
  takeUnsaved(): StreamEvent[] {
    const out = this.unsaved;
    this.unsaved = [];
    return out;
  }

  /** No more events: readers see every one (the run saved the rest with its final state). */
  close(): void {
    this.closed = true;
    this.visibleUntil = Infinity;
    this.notify();
  }

  /**
   * Events with `sequence_number > after`, then each new one as it comes, until the log
   * closes or `signal` aborts.
   */
  async *follow(after: number, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    let next = after + 1;
    for (;;) {
      while (next < this.events.length && next <= this.visibleUntil) yield this.events[next++]!;
      if ((this.closed && next >= this.events.length) || signal?.aborted) return;
      // One listener per wait, removed when the next event wakes it: a stream of N tokens
      // would otherwise leave N listeners on the reader's signal.
      await new Promise<void>((resolve) => {
        const wake = () => {
          signal?.removeEventListener('abort', wake);
          resolve();
        };
        this.wake.push(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = [];
    for (const resolve of wake) resolve();
  }
}
