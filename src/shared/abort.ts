/**
 * One abort type for the whole runtime. Whoever stops work aborts its controller with a
 * {@link Stopped} (which says why); code that only needs "was it aborted" reads
 * `signal.aborted`, and a rejected wait is always an `AbortError`, never a bare string.
 */

/** Why a response (or any unit of work) was stopped. */
export type StopReason = 'cancel' | 'delete' | 'disconnect' | 'shutdown' | 'deadline';

const STOP_MESSAGES: Record<StopReason, string> = {
  cancel: 'The response was cancelled.',
  delete: 'The response was deleted.',
  disconnect: 'The client went away.',
  shutdown: 'The local runtime is shutting down.',
  // Only a response still waiting for its engine is stopped for this (`connection-deadline.ts` in server/routes/http).
  deadline: 'The request waited behind other work and could not start before its connection would be cut; it was not run.',
};

/** The reason an AbortController is aborted with: an `AbortError` that says why. */
export class Stopped extends Error {
  override readonly name = 'AbortError';
  constructor(readonly why: StopReason) {
    super(STOP_MESSAGES[why]);
  }
}

/** Why `signal` was stopped, when it was aborted with a {@link Stopped}. */
export function stopReasonOf(signal: AbortSignal): StopReason | null {
  return signal.aborted && signal.reason instanceof Stopped ? signal.reason.why : null;
}

/** Resolves after `ms`, or rejects early with the signal's reason when it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The signal's reason when it is an error, else an AbortError (never a bare string). */
export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted.', 'AbortError');
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
