/**
 * `load()` run once and shared by every caller; a load that fails is forgotten, so the next
 * caller tries again (a model download that failed offline works once back online).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | null = null;
  return () => {
    if (current) return current;
    const loading = load();
    current = loading;
    loading.catch(() => {
      if (current === loading) current = null;
    });
    return loading;
  };
}
