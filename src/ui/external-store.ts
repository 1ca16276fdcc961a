import { useSyncExternalStore } from 'react';

/** A tiny observable snapshot holder for `useSyncExternalStore`. Snapshots are immutable. */
export class ExternalStore<T> {
  #snapshot: T;
  readonly #listeners = new Set<() => void>();

  constructor(initial: T) {
    this.#snapshot = initial;
  }

  get = (): T => this.#snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  protected set(next: T): void {
    if (next === this.#snapshot) return;
    this.#snapshot = next;
    for (const listener of this.#listeners) listener();
  }
}

/**
 * An ExternalStore whose updates may be coalesced: stream-driven changes (tokens arrive
 * faster than frames) reach the listeners at most once per `notifyEveryMs`, urgent ones at once.
 */
export class CoalescingStore<T> extends ExternalStore<T> {
  #pending: T | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    initial: T,
    private readonly notifyEveryMs: number,
  ) {
    super(initial);
  }

  protected update(change: (state: T) => T, urgent = false): void {
    this.#pending = change(this.#pending ?? this.get());
    if (urgent) return this.flush();
    this.#timer ??= setTimeout(() => this.flush(), this.notifyEveryMs);
  }

  /** Delivers the pending state now. */
  protected flush(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const pending = this.#pending;
    this.#pending = null;
    if (pending !== null) this.set(pending);
  }

  /** The state with every pending update applied. */
  protected current(): T {
    return this.#pending ?? this.get();
  }
}

export function useStore<T>(store: ExternalStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.get);
}
