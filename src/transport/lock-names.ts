/**
 * Web Lock names shared by pages, the runtime worker and the service worker. Locks are
 * released by the browser when their holder's context dies, which makes them the one
 * reliable "the other side is gone" signal across tabs, workers and the SW.
 */

/** Held by the leader tab for its whole life; only the holder runs a runtime worker. */
export const LEADER_LOCK = 'local-responses/leader';

/** Prefix of the lock each runtime worker holds for its life (one per runtime instance). */
export const RUNTIME_LOCK_PREFIX = 'local-responses/runtime/';

/** Prefix of the lock each requester (SW instance, page) holds for its life. */
export const PEER_LOCK_PREFIX = 'local-responses/peer/';

export function newLockName(prefix: string): string {
  return prefix + crypto.randomUUID();
}
