/** How responses and their items are laid out as IndexedDB rows (idb-schema.ts has the stores). */
import type { ResponseObject } from '../protocol/response-object';
import { TERMINAL_STATUSES } from '../protocol/response-object';
import type { ResponseRow, ThreadKey } from './idb-schema';

export function row(response: ResponseObject, now?: number, storedAt?: number, thread: ThreadKey = {}): ResponseRow {
  const terminal = TERMINAL_STATUSES.has(response.status);
  return {
    id: response.id,
    ...threadOf(thread),
    ...(storedAt !== undefined ? { stored_at: storedAt } : {}),
    status: response.status,
    ...(terminal ? { finished_at: response.completed_at ?? now ?? Math.floor(Date.now() / 1000) } : {}),
    response,
  };
}

/** Only the thread fields that are set (an absent field keeps a row out of the `by-thread` indexes). */
export function threadOf(key: ThreadKey): ThreadKey {
  return key.thread_root !== undefined && key.thread_depth !== undefined ? { thread_root: key.thread_root, thread_depth: key.thread_depth } : {};
}

/** Thread fields of an item row: the thread, and its response's parent for walking the path. */
export function threadItem(thread: ThreadKey, response: ResponseObject): ThreadKey & { thread_parent?: string | null } {
  const key = threadOf(thread);
  return key.thread_root !== undefined ? { ...key, thread_parent: response.previous_response_id } : {};
}

export function itemRange(conversationId: string): IDBKeyRange {
  return IDBKeyRange.bound([conversationId, -Infinity], [conversationId, Infinity]);
}


/** Every row of a response's event log. */
export function logRange(responseId: string): IDBKeyRange {
  return IDBKeyRange.bound([responseId, -Infinity], [responseId, Infinity]);
}
