/**
 * How an event log is laid out as rows of the `events` store: one row a batch of consecutive
 * events (what one flush or one save hands over), keyed by the batch's first sequence number,
 * its events as deflate-compressed JSON.
 *
 * Why: a row costs far more than its value. In Chromium each row is its key twice (the data
 * and an "exists" entry, the response id in UTF-16 each time) plus the value, and a text
 * delta event is ~190 bytes of JSON that say 4 characters. One row an event made a short
 * streamed answer ~70 rows and ~20 kB on disk; one compressed row a batch makes it one row
 * of ~1–2 kB. The events come back exactly as they were (JSON is their wire form anyway:
 * replay must equal what the stream sent), so resume replays the same events.
 *
 * Three row shapes are read: `packed` (this version), `events` (a batch left uncompressed:
 * where `CompressionStream` is missing, and the terminal event startup recovery appends),
 * and `event` (one event a row, as written before batches; such logs stay readable until
 * they are pruned).
 */
import type { StreamEvent } from '../protocol/stream-events';
import type { EventRow } from './idb-schema';

/** The row holding `events` (consecutive, in order, at least one) of response `responseId`. */
export async function eventRow(responseId: string, events: readonly StreamEvent[]): Promise<EventRow> {
  const first = events[0];
  if (!first) throw new Error('an event row holds at least one event');
  const key = { response_id: responseId, sequence_number: first.sequence_number };
  try {
    return { ...key, packed: await deflate(JSON.stringify(events)) };
  } catch {
    // No CompressionStream here (or none that deflates): the same batch, uncompressed.
    return { ...key, events: [...events] };
  }
}

/** The events a row holds, in order, whichever shape it was written in. */
export async function eventsOfRow(row: EventRow): Promise<StreamEvent[]> {
  if (row.packed) return JSON.parse(await inflate(row.packed)) as StreamEvent[];
  if (row.events) return row.events;
  return row.event ? [row.event] : [];
}

/** The events of `rows` (in key order) with `sequence_number > after`. */
export async function eventsAfter(rows: readonly EventRow[], after: number): Promise<StreamEvent[]> {
  const batches = await Promise.all(rows.map(eventsOfRow));
  return batches.flat().filter((e) => e.sequence_number > after);
}

/** About what a row takes: its compressed bytes, or its events as JSON (for the storage view). */
export function eventRowBytes(row: EventRow): number {
  return row.packed ? row.packed.byteLength : JSON.stringify(row.events ?? row.event ?? null).length;
}

async function deflate(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function inflate(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Response(stream).text();
}
