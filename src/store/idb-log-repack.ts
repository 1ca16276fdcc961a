/**
 * A finished background response's log, written while it ran as one row a flush (every
 * 50 ms: a long answer leaves hundreds), becomes one compressed row: what a later resume reads
 * at once, and a fraction of the bytes (each row carries its keys, compression works across
 * the whole log). Best effort: the batches are a valid log too, so a failure only leaves them.
 */
import type { IDBPDatabase } from 'idb';
import { describeError } from '../shared/api-error';
import { eventRow, eventsAfter } from './event-rows';
import type { ResponsesDB } from './idb-schema';
import { logRange } from './idb-rows';

export async function repackLog(db: IDBPDatabase<ResponsesDB>, responseId: string): Promise<void> {
  try {
    const rows = await db.getAll('events', logRange(responseId));
    if (rows.length < 2) return;
    // Read, decoded and encoded outside any transaction (compression is not an IndexedDB request).
    const packed = await eventRow(responseId, await eventsAfter(rows, -1));
    const tx = db.transaction(['responses', 'events'], 'readwrite');
    const keys = await tx.objectStore('events').getAllKeys(logRange(responseId));
    // Only the log that was read is replaced: not one deleted meanwhile, nor one that grew.
    const unchanged = (await tx.objectStore('responses').getKey(responseId)) !== undefined && keys.length === rows.length && keys.every((key, i) => key[1] === rows[i]!.sequence_number);
    if (!unchanged) {
      tx.abort();
      await tx.done.catch(() => undefined);
      return;
    }
    await Promise.all([tx.objectStore('events').delete(logRange(responseId)), tx.objectStore('events').put(packed), tx.done]);
  } catch (err) {
    console.warn(`The event log of ${responseId} stays in batches: ${describeError(err)}`);
  }
}
