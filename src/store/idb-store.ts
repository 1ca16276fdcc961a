/** ResponseStore on IndexedDB through `idb`. */
import { openDB, type IDBPDatabase, type IDBPTransaction } from 'idb';
import type { StoredItem } from '../protocol/output-items';
import { TERMINAL_STATUSES, type ResponseObject } from '../protocol/response-object';
import type { StreamEvent } from '../protocol/stream-events';
import { DB_VERSION, migrate, type ConversationRow, type ResponseRow, type ResponsesDB, type ThreadKey } from './idb-schema';
import type { Chain, ChainTurn, ConversationAppend, ResponseStore, SaveOptions, StoredSummary } from '../ports/response-store';
import type { ItemPage, ItemPageQuery, StoredConversation } from '../ports/conversation-store';
import type { UnreadableResponse } from '../ports/response-store';
import { failUnfinished } from './idb-recovery';
import { itemRange, logRange, row, threadItem, threadOf } from './idb-rows';
import { eventRow, eventRowBytes, eventsAfter } from './event-rows';
import { repackLog } from './idb-log-repack';

export interface IdbStoreOptions {
  /** Database name; tests pass a fresh one. */
  name?: string;
}

export const DEFAULT_DB_NAME = 'local-responses';

/** Opens (and migrates) the database. Uses the global `indexedDB` (fake-indexeddb in Node tests). */
export async function openIdbStore(options: IdbStoreOptions = {}): Promise<ResponseStore> {
  if (!globalThis.indexedDB) throw new Error('IndexedDB is not available in this context.');
  const db = await openDB<ResponsesDB>(options.name ?? DEFAULT_DB_NAME, DB_VERSION, {
    upgrade: (database, oldVersion, _newVersion, tx) => migrate(database, oldVersion, tx),
  });
  return new IdbStore(db);
}

class IdbStore implements ResponseStore {
  constructor(private readonly db: IDBPDatabase<ResponsesDB>) {}

  async create(response: ResponseObject, inputItems: StoredItem[]): Promise<void> {
    const tx = this.db.transaction(['responses', 'items'], 'readwrite');
    // A first turn roots a thread; a later turn joins its parent's (unless the parent predates threads).
    let thread: ThreadKey = { thread_root: response.id, thread_depth: 0 };
    if (response.previous_response_id) {
      const parent = await tx.objectStore('responses').get(response.previous_response_id);
      thread = parent?.thread_root !== undefined && parent.thread_depth !== undefined ? { thread_root: parent.thread_root, thread_depth: parent.thread_depth + 1 } : {};
    }
    await Promise.all([
      tx.objectStore('responses').add(row(response, undefined, performance.timeOrigin + performance.now(), thread)),
      ...inputItems.map((item, position) =>
        tx.objectStore('items').put({ response_id: response.id, side: 0, position, item_id: item.id, item, ...threadItem(thread, response) }),
      ),
      tx.done,
    ]);
  }

  async save(response: ResponseObject, events: StreamEvent[], append?: ConversationAppend, options: SaveOptions = {}): Promise<void> {
    const terminal = TERMINAL_STATUSES.has(response.status);
    const dropLog = terminal && options.dropLog === true;
    // Compressed before the transaction opens: it would commit while a non-IndexedDB promise is awaited.
    const batch = !dropLog && events.length > 0 ? await eventRow(response.id, events) : null;
    const conversationId = terminal && append ? (response.conversation?.id ?? null) : null;
    const tx = this.db.transaction(['responses', 'items', 'events', 'conversations', 'conversation_items'], 'readwrite');
    // A response deleted while it ran must stay deleted: only update rows that exist.
    const existing = await tx.objectStore('responses').get(response.id);
    if (existing === undefined) {
      tx.abort();
      await tx.done.catch(() => undefined);
      return;
    }
    const thread = threadOf(existing);
    const writes: Promise<unknown>[] = [tx.objectStore('responses').put(row(response, undefined, existing.stored_at, thread))];
    if (terminal) {
      response.output.forEach((item, position) =>
        writes.push(tx.objectStore('items').put({ response_id: response.id, side: 1, position, item_id: item.id, item, ...threadItem(thread, response) })),
      );
    }
    // The turn joins its conversation in this same transaction: whole, or (conversation deleted meanwhile) not at all.
    if (conversationId !== null && append) {
      const conversation = await tx.objectStore('conversations').get(conversationId);
      if (conversation) writes.push(...this.#appendRows(tx, conversation, append));
    }
    if (dropLog) writes.push(tx.objectStore('events').delete(logRange(response.id)));
    if (batch) writes.push(tx.objectStore('events').put(batch));
    await Promise.all([...writes, tx.done]);
    if (terminal && !dropLog) await repackLog(this.db, response.id);
  }

  async appendEvents(responseId: string, events: StreamEvent[]): Promise<void> {
    if (events.length === 0) return;
    const batch = await eventRow(responseId, events);
    const tx = this.db.transaction(['responses', 'events'], 'readwrite');
    if ((await tx.objectStore('responses').getKey(responseId)) === undefined) {
      tx.abort();
      await tx.done.catch(() => undefined);
      return;
    }
    await Promise.all([tx.objectStore('events').put(batch), tx.done]);
  }

  async get(id: string): Promise<ResponseObject | undefined> {
    return (await this.db.get('responses', id))?.response;
  }

  async chain(lastId: string): Promise<Chain | undefined> {
    const tx = this.db.transaction(['responses', 'items'], 'readonly');
    const last = await tx.objectStore('responses').get(lastId);
    if (!last) {
      await tx.done;
      return undefined;
    }
    // Threaded: every item of the tree up to this depth (sibling branches too), in one range read.
    const { thread_root: root, thread_depth: depth } = last;
    const rows = root !== undefined && depth !== undefined ? await tx.objectStore('items').index('by-thread').getAll(IDBKeyRange.bound([root, 0], [root, depth])) : [];
    const byResponse = new Map<string, { parent: string | null; input: StoredItem[]; output: StoredItem[] }>();
    for (const r of rows) {
      const turn = byResponse.get(r.response_id) ?? { parent: r.thread_parent ?? null, input: [], output: [] };
      (r.side === 0 ? turn.input : turn.output).push(r.item);
      byResponse.set(r.response_id, turn);
    }
    const turns: ChainTurn[] = [];
    let missing: string | null = null;
    for (let id: string | null = lastId; id; ) {
      const known = byResponse.get(id);
      if (known) {
        turns.push({ id, input: known.input, output: known.output });
        id = known.parent;
        continue;
      }
      // A turn with no items, or rows from before threads existed: read it on its own.
      const found: ResponseRow | undefined = id === lastId ? last : await tx.objectStore('responses').get(id);
      if (!found) {
        missing = id;
        break;
      }
      const input = (await tx.objectStore('items').getAll(IDBKeyRange.bound([id, 0, 0], [id, 0, Infinity]))).map((r) => r.item);
      turns.push({ id, input, output: found.response.output });
      id = found.response.previous_response_id;
    }
    await tx.done;
    return { last: last.response, turns: turns.reverse(), missing };
  }

  async delete(id: string): Promise<boolean> {
    const tx = this.db.transaction(['responses', 'items', 'events'], 'readwrite');
    const found = (await tx.objectStore('responses').getKey(id)) !== undefined;
    if (found) {
      await Promise.all([
        tx.objectStore('responses').delete(id),
        tx.objectStore('items').delete(IDBKeyRange.bound([id, 0, 0], [id, 1, Infinity])),
        tx.objectStore('events').delete(logRange(id)),
      ]);
    }
    await tx.done;
    return found;
  }

  async inputItems(responseId: string): Promise<StoredItem[]> {
    const rows = await this.db.getAll('items', IDBKeyRange.bound([responseId, 0, 0], [responseId, 0, Infinity]));
    return rows.map((r) => r.item);
  }

  async events(responseId: string, after: number): Promise<StreamEvent[]> {
    const tx = this.db.transaction('events', 'readonly');
    // The batch holding `after + 1` starts at or before it: the last row keyed ≤ after.
    const holding = await tx.store.openKeyCursor(IDBKeyRange.bound([responseId, -Infinity], [responseId, after]), 'prev');
    const from = holding ? holding.key[1] : -Infinity;
    const rows = await tx.store.getAll(IDBKeyRange.bound([responseId, from], [responseId, Infinity]));
    await tx.done;
    return eventsAfter(rows, after);
  }

  async findItem(itemId: string): Promise<StoredItem | undefined> {
    const rows = await this.db.getAllFromIndex('items', 'by-item-id', itemId);
    if (rows.length > 0) return rows.at(-1)?.item;
    // Items added with the Conversations API belong to no response.
    return (await this.db.getAllFromIndex('conversation_items', 'by-item-id', itemId)).at(-1)?.item;
  }

  async createConversation(conversation: StoredConversation, items: StoredItem[]): Promise<void> {
    const tx = this.db.transaction(['conversations', 'conversation_items'], 'readwrite');
    const row = { ...conversation, next_position: 0 };
    await Promise.all([tx.objectStore('conversations').add(row), ...this.#appendRows(tx, row, items), tx.done]);
  }

  async getConversation(id: string): Promise<StoredConversation | undefined> {
    const found = await this.db.get('conversations', id);
    return found ? { id: found.id, created_at: found.created_at, metadata: found.metadata } : undefined;
  }

  async updateConversation(id: string, metadata: Record<string, string>): Promise<StoredConversation | undefined> {
    const tx = this.db.transaction('conversations', 'readwrite');
    const found = await tx.store.get(id);
    if (found) await tx.store.put({ ...found, metadata });
    await tx.done;
    return found ? { id: found.id, created_at: found.created_at, metadata } : undefined;
  }

  async deleteConversation(id: string): Promise<boolean> {
    const tx = this.db.transaction(['conversations', 'conversation_items'], 'readwrite');
    const found = (await tx.objectStore('conversations').getKey(id)) !== undefined;
    if (found) await Promise.all([tx.objectStore('conversations').delete(id), tx.objectStore('conversation_items').delete(itemRange(id))]);
    await tx.done;
    return found;
  }

  async appendConversationItems(id: string, items: StoredItem[]): Promise<boolean> {
    const tx = this.db.transaction(['conversations', 'conversation_items'], 'readwrite');
    const conversation = await tx.objectStore('conversations').get(id);
    if (conversation) await Promise.all(this.#appendRows(tx, conversation, items));
    await tx.done;
    return conversation !== undefined;
  }

  async conversationItems(id: string): Promise<StoredItem[] | undefined> {
    const tx = this.db.transaction(['conversations', 'conversation_items'], 'readonly');
    const [found, rows] = await Promise.all([tx.objectStore('conversations').getKey(id), tx.objectStore('conversation_items').getAll(itemRange(id))]);
    await tx.done;
    return found === undefined ? undefined : rows.map((r) => r.item);
  }

  async listConversationItems(id: string, { after, limit, order }: ItemPageQuery): Promise<ItemPage> {
    const tx = this.db.transaction('conversation_items', 'readonly');
    const from = after === null ? undefined : (await tx.store.index('by-item-id').getAll(after)).find((r) => r.conversation_id === id)?.position;
    const range =
      from === undefined
        ? itemRange(id)
        : order === 'asc'
          ? IDBKeyRange.bound([id, from], [id, Infinity], true)
          : IDBKeyRange.bound([id, -Infinity], [id, from], false, true);
    // One more than the page tells whether there is more, without reading the rest.
    const items: StoredItem[] = [];
    for (let c = await tx.store.openCursor(range, order === 'asc' ? 'next' : 'prev'); c && items.length <= limit; c = await c.continue()) items.push(c.value.item);
    await tx.done;
    return { items: items.slice(0, limit), has_more: items.length > limit };
  }

  async getConversationItem(id: string, itemId: string): Promise<StoredItem | undefined> {
    return (await this.db.getAllFromIndex('conversation_items', 'by-item-id', itemId)).find((r) => r.conversation_id === id)?.item;
  }

  async deleteConversationItem(id: string, itemId: string): Promise<boolean> {
    const tx = this.db.transaction('conversation_items', 'readwrite');
    const found = (await tx.store.index('by-item-id').getAll(itemId)).filter((r) => r.conversation_id === id);
    await Promise.all(found.map((r) => tx.store.delete([r.conversation_id, r.position])));
    await tx.done;
    return found.length > 0;
  }

  async listConversations(): Promise<StoredConversation[]> {
    return (await this.db.getAll('conversations')).map(({ id, created_at, metadata }) => ({ id, created_at, metadata }));
  }

  async conversationIds(): Promise<string[]> {
    return this.db.getAllKeys('conversations');
  }

  /** Puts `items` after the conversation's last item and advances its counter (inside `tx`). */
  #appendRows(
    tx: IDBPTransaction<ResponsesDB, Array<'conversations' | 'conversation_items' | 'responses' | 'items' | 'events'>, 'readwrite'>,
    conversation: ConversationRow,
    items: StoredItem[],
  ): Promise<unknown>[] {
    const start = conversation.next_position;
    return [
      ...items.map((item, i) => tx.objectStore('conversation_items').put({ conversation_id: conversation.id, position: start + i, item_id: item.id, item })),
      tx.objectStore('conversations').put({ ...conversation, next_position: start + items.length }),
    ];
  }

  failUnfinished(message: string, now: number, unreadable: UnreadableResponse): Promise<string[]> {
    return failUnfinished(this.db, message, now, unreadable);
  }

  async listStored(): Promise<StoredSummary[]> {
    const tx = this.db.transaction(['responses', 'items', 'events'], 'readonly');
    const bytes = new Map<string, number>();
    const add = (id: string, value: unknown) => bytes.set(id, (bytes.get(id) ?? 0) + JSON.stringify(value).length);
    // Cursors, not getAll: the item and event stores are the bulk of what is stored.
    for (let c = await tx.objectStore('items').openCursor(); c; c = await c.continue()) add(c.value.response_id, c.value.item);
    for (let c = await tx.objectStore('events').openCursor(); c; c = await c.continue()) bytes.set(c.value.response_id, (bytes.get(c.value.response_id) ?? 0) + eventRowBytes(c.value));
    const summaries: Array<StoredSummary & { order: number }> = [];
    for (let c = await tx.objectStore('responses').openCursor(); c; c = await c.continue()) {
      const { response } = c.value;
      // A row that is not a response (written by a broken version) is not listed; recovery reports it.
      if (typeof response !== 'object' || response === null || typeof response.id !== 'string') continue;
      add(response.id, response);
      summaries.push({
        order: c.value.stored_at ?? response.created_at * 1000,
        id: response.id,
        created_at: response.created_at,
        status: response.status,
        model: response.model,
        previous_response_id: response.previous_response_id,
        conversation_id: response.conversation?.id ?? null,
        bytes: bytes.get(response.id) ?? 0,
      });
    }
    await tx.done;
    return summaries.sort((a, b) => a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(({ order: _order, ...summary }) => summary);
  }

  async pruneEventLogs(finishedBefore: number): Promise<number> {
    const tx = this.db.transaction(['responses', 'events'], 'readwrite');
    const ids = await tx.objectStore('responses').index('by-finished-at').getAllKeys(IDBKeyRange.upperBound(finishedBefore, true));
    let pruned = 0;
    for (const id of ids) {
      const range = logRange(id);
      if ((await tx.objectStore('events').count(range)) > 0) {
        await tx.objectStore('events').delete(range);
        pruned++;
      }
    }
    await tx.done;
    return pruned;
  }

  close(): void {
    this.db.close();
  }
}
