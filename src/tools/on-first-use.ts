/**
 * `load` once, at the first call; a failed load (the file not fetched yet and the network
 * gone) fails that call and is tried again at the next. How each tool's code is imported at
 * its first call, never at the runtime's start.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    if (!loading) {
      const started = load();
      started.catch(() => {
        if (loading === started) loading = null;
      });
      loading = started;
    }
    return loading;
  };
}
