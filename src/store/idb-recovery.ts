/**
 * Startup recovery: responses an earlier runtime left `queued` or `in_progress` can never
 * finish now. Each becomes `failed` with the output its event log recorded, and a stream that
 * resumes it sees how it ended. One unreadable row is replaced by a failed response saying so,
 * and never keeps the runtime from starting.
 */
import type { IDBPDatabase } from 'idb';
import type { ResponseObject } from '../protocol/response-object';
import { replayOutput } from '../protocol/replay-output';
import { recoveredTerminalSequence, TERMINAL_EVENT_TYPES, type StreamEvent } from '../protocol/stream-events';
import type { UnreadableResponse } from '../ports/response-store';
import { describeError } from '../shared/api-error';
import { Codes } from '../shared/error-codes';
import type { ResponseRow, ResponsesDB } from './idb-schema';
import { logRange, row } from './idb-rows';
import { eventsAfter } from './event-rows';

/** What `failUnfinished` needs of a row: a response object whose output is a list of objects. */
function isFailable(response: unknown): response is ResponseObject {
  if (typeof response !== 'object' || response === null) return false;
  const output = (response as { output?: unknown }).output;
  return Array.isArray(output) && output.every((item) => typeof item === 'object' && item !== null);
}

export async function failUnfinished(db: IDBPDatabase<ResponsesDB>, message: string, now: number, unreadable: UnreadableResponse): Promise<string[]> {
  // Keys only: a key is a short string and always readable; a row may not be (a value
  // structured clone cannot rebuild, or one written by a broken version). Each row then
  // gets its own transaction, so one bad row can neither abort nor block the others.
  const index = db.transaction('responses').store.index('by-status');
  const ids = [...(await index.getAllKeys('queued')), ...(await index.getAllKeys('in_progress'))];
  for (const id of ids) {
    try {
      await failOne(db, id, message, now, unreadable);
    } catch (err) {
      // Even the replacement could not be written (disk full, say): the next start tries again.
      console.error(`Startup recovery could not mark response ${id} failed:`, err);
    }
  }
  return ids;
}

/** Read and write are separate transactions: this runs at start, before anything else writes. */
async function failOne(db: IDBPDatabase<ResponsesDB>, id: string, message: string, now: number, unreadable: UnreadableResponse): Promise<void> {
  let stored: ResponseRow | undefined;
  let problem: unknown = null;
  try {
    stored = await db.get('responses', id);
    if (stored && !isFailable(stored.response)) problem = new Error('the stored response has no output list');
  } catch (err) {
    problem = err;
  }
  if (problem === null && stored) {
    // The output a cut-off response keeps is what its event log recorded: the log is
    // flushed while the model generates, the stored snapshot only at state changes.
    const log = await eventsOf(db, id);
    const replayed = log.length > 0 ? replayOutput(log) : [];
    const output = replayed.length >= stored.response.output.length ? replayed : stored.response.output;
    const response: ResponseObject = {
      ...stored.response,
      status: 'failed',
      error: { code: Codes.serverError, type: 'server_error', param: null, message },
      // Items without a status (MCP tool lists, approval requests) are whole when written.
      output: output.map((item) => (!('status' in item) || item.status === 'completed' ? item : ({ ...item, status: 'incomplete' as const } as typeof item))),
    };
    const last = log.at(-1);
    const tx = db.transaction(['responses', 'events'], 'readwrite');
    const writes: Promise<unknown>[] = [tx.objectStore('responses').put(row(response, now, stored.stored_at))];
    // A streamed response's log (background ones always have one) gains its terminal event,
    // so a client resuming the stream sees how it ended. Numbered past anything the dead run
    // can have shown a client (UNLOGGED_EVENTS_MAX), so no number a client saw is reused.
    if ((last || stored.response.background) && !(last && TERMINAL_EVENT_TYPES.has(last.type))) {
      const terminal: StreamEvent = { type: 'response.failed', sequence_number: recoveredTerminalSequence(last?.sequence_number ?? -1), response };
      writes.push(tx.objectStore('events').put({ response_id: id, sequence_number: terminal.sequence_number, events: [terminal] }));
    }
    await Promise.all([...writes, tx.done]);
    return;
  }
  if (!stored && problem === null) return; // deleted meanwhile
  const reason = describeError(problem);
  console.warn(`Startup recovery: response ${id} could not be read (${reason}); it is replaced by a failed response saying so.`);
  const salvage = stored?.response as Partial<ResponseObject> | null | undefined;
  await db.put('responses', row(unreadable(id, reason, salvage ?? null), now));
}

/** A response's event log; an unreadable one counts as empty (recovery then keeps the snapshot's output). */
async function eventsOf(db: IDBPDatabase<ResponsesDB>, id: string): Promise<StreamEvent[]> {
  try {
    return await eventsAfter(await db.getAll('events', logRange(id)), -1);
  } catch (err) {
    console.warn(`Startup recovery: the event log of ${id} could not be read (${describeError(err)}).`);
    return [];
  }
}
