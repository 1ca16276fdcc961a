/**
 * Runs the tasks given to it one after another, in order: for a model that must not be asked
 * twice at once (an embedder's single engine). A task that fails does not stop the next.
 */
export function oneAtATime(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = tail.then(task);
    tail = run.catch(() => undefined);
    return run;
  };
}
