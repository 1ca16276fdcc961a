/**
 * Liveness through Web Locks: a context holds a named lock until it dies; anyone else can
 * ask to be told when that happens. Needed because Chromium reports nothing when the other
 * end of a MessagePort (or of a transferred stream) is destroyed.
 */

/**
 * Takes `name` and never releases it: the browser frees it when this context ends.
 * Resolves once the lock is held, so the name can be handed out safely.
 */
export function holdLifetimeLock(name: string): Promise<void> {
  return new Promise((held, failed) => {
    navigator.locks
      .request(name, () => {
        held();
        // The callback's promise is the lock's lifetime: never settles → held until death.
        return new Promise<never>(() => {});
      })
      .catch(failed);
  });
}

/**
 * Resolves when `name` is free, i.e. its holder is gone (or never took it). The lock is
 * released again at once so other watchers are told too.
 */
export function whenLockReleased(name: string, signal?: AbortSignal): Promise<void> {
  return navigator.locks.request(name, { signal }, () => undefined);
}
