/**
 * The storage port the server uses. Every method is one IndexedDB transaction, so a state
 * change (response snapshot + its items + its events) is all-or-nothing.
 */
import type { StoredItem } from '../protocol/output-items';
import type { ResponseObject } from '../protocol/response-object';
import type { StreamEvent } from '../protocol/stream-events';
import type { ConversationStore } from './conversation-store';

/** One stored response as the storage view lists it. */
export interface StoredSummary {
  id: string;
  created_at: number;
  status: ResponseObject['status'];
  model: string;
  previous_response_id: string | null;
  /** The conversation the response belongs to (`conversation.id`), if any. */
  conversation_id: string | null;
  /** Approximate bytes it takes: the response and its items as JSON, its event log as stored (compressed). */
  bytes: number;
}

/** One turn of a `previous_response_id` chain: a response's input items and output. */
export interface ChainTurn {
  id: string;
  input: StoredItem[];
  output: StoredItem[];
}

/** The chain ending at `last`, oldest turn first (`last`'s own turn included). */
export interface Chain {
  last: ResponseObject;
  turns: ChainTurn[];
  /** Where the chain is broken: an earlier response that no longer exists; null when whole. */
  missing: string | null;
}

/**
 * Items a terminal save appends to the response's conversation (`response.conversation.id`)
 * in the same transaction: the turn lands in the conversation whole or not at all.
 */
export type ConversationAppend = StoredItem[];

export interface SaveOptions {
  /**
   * The response has finished and its stream will never be retrieved again: its event log
   * goes, in the same transaction (the events given are not written). Without it a terminal
   * save keeps the log, compacted.
   */
  dropLog?: boolean;
}

export interface ResponseStore extends ConversationStore {
  /** A new response with the input items of its request (in request order). */
  create(response: ResponseObject, inputItems: StoredItem[]): Promise<void>;
  /**
   * Saves the latest snapshot and appends events. When the response is terminal its output
   * items are indexed too (for `item_reference`), in the same transaction, and `append`
   * (when given) is appended to its conversation — if that conversation still exists.
   */
  save(response: ResponseObject, events: StreamEvent[], append?: ConversationAppend, options?: SaveOptions): Promise<void>;
  appendEvents(responseId: string, events: StreamEvent[]): Promise<void>;
  get(id: string): Promise<ResponseObject | undefined>;
  /** Removes the response, its items and its event log. False when it did not exist. */
  delete(id: string): Promise<boolean>;
  inputItems(responseId: string): Promise<StoredItem[]>;
  /**
   * The chain ending at `lastId`, read in one range read of its thread's items (rows of
   * schema version 1 fall back to two reads per turn). Undefined when `lastId` does not exist.
   */
  chain(lastId: string): Promise<Chain | undefined>;
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
