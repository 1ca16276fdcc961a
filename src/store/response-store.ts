/**
 * The storage port the server uses. Every method is one IndexedDB transaction, so a state
 * change (response snapshot + its items + its events) is all-or-nothing.
 */
import type { StoredItem } from '../protocol/output-items';
import type { ResponseObject } from '../protocol/response-object';
import type { StreamEvent } from '../protocol/stream-events';

/** One stored response as the storage view lists it. */
export interface StoredSummary {
  id: string;
  created_at: number;
  status: ResponseObject['status'];
  model: string;
  previous_response_id: string | null;
  /** Approximate bytes it takes: the response, its items and its event log, as JSON. */
  bytes: number;
}

export interface ResponseStore {
  /** A new response with the input items of its request (in request order). */
  create(response: ResponseObject, inputItems: StoredItem[]): Promise<void>;
  /**
   * Saves the latest snapshot and appends events. When the response is terminal its output
   * items are indexed too (for `item_reference`), in the same transaction.
   */
  save(response: ResponseObject, events: StreamEvent[]): Promise<void>;
  appendEvents(responseId: string, events: StreamEvent[]): Promise<void>;
  get(id: string): Promise<ResponseObject | undefined>;
  /** Removes the response, its items and its event log. False when it did not exist. */
  delete(id: string): Promise<boolean>;
  inputItems(responseId: string): Promise<StoredItem[]>;
  /** Logged events with `sequence_number > after`, in order. */
  events(responseId: string, after: number): Promise<StreamEvent[]>;
  /** The most recent stored item with this id (input or output of any response). */
  findItem(itemId: string): Promise<StoredItem | undefined>;
  /**
   * Responses an earlier runtime left `queued`/`in_progress` become `failed` with `message`.
   * A row that cannot be read or is not a response is logged and replaced by
   * `unreadable(id, reason, whatever could be read)`; no row can make this throw.
   * Returns their ids.
   */
  failUnfinished(message: string, now: number, unreadable: UnreadableResponse): Promise<string[]>;
  /** Every stored response, oldest first (by creation). Reads everything: for occasional use. */
  listStored(): Promise<StoredSummary[]>;
  /** Drops event logs of responses that finished before `finishedBefore` (unix seconds). */
  pruneEventLogs(finishedBefore: number): Promise<number>;
  close(): void;
}

/** Builds the failed response that stands in for a stored row that could not be read. */
export type UnreadableResponse = (id: string, reason: string, salvage: Partial<ResponseObject> | null) => ResponseObject;
