/**
 * A timeout for a deadline that another thread meets by sending a message. When it fires
 * late — this thread's event loop was busy, so a message that arrived in time may still be
 * queued behind the timer — it waits once more, as long as it was late (at most `ms`), so
 * what came in time is read before the deadline is judged missed. A busy machine then costs
 * time, not a wrong verdict (a Python worker stopped, and its state lost, for nothing).
 */
export interface ListeningTimeout {
  clear(): void;
}

export function listeningTimeout(fn: () => void, ms: number, toleranceMs = 100): ListeningTimeout {
  const due = Date.now() + ms;
  let handle = setTimeout(() => {
    const late = Date.now() - due;
    if (late > toleranceMs) handle = setTimeout(fn, Math.min(late, ms));
    else fn();
  }, ms);
  return { clear: () => clearTimeout(handle) };
}
