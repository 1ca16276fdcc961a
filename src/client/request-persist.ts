/**
 * `navigator.storage.persist()`, without waiting on a person. Chrome decides at once (from
 * engagement, an installed app); Firefox asks with a prompt and resolves only once it is
 * answered (measured in Firefox ESR 153: still pending after 5 s, with or without a click
 * first). A model download must not wait for that answer: after `waitMs` it goes on as not
 * persisted (yet); the person's answer still applies whenever it is given.
 */
export interface PersistableStorage {
  persist?(): Promise<boolean>;
}

export async function requestPersist(storage: PersistableStorage | undefined, waitMs = 2_000): Promise<boolean> {
  if (!storage?.persist) return false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answer = storage.persist().catch(() => false);
  const notYet = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)));
  try {
    return await Promise.race([answer, notYet]);
  } finally {
    clearTimeout(timer);
  }
}
