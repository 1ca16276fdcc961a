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

export function useStore<T>(store: ExternalStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.get);
}
