/**
 * A ResponseStore that never loses a write it was given, even when the disk is full.
 *
 * IndexedDB refuses writes once the origin's quota is used up (`QuotaExceededError`, often
 * with an empty message). A response that was already accepted must still end in a state
 * its client can see: so a failed `save`/`appendEvents` is held here, in memory, and every
 * read answers with the held copy on top of what is stored. Held writes are retried before
 * every later write and on a timer; once one succeeds they are gone from memory. If the
 * runtime stops before that, the stored row is still `in_progress` and the next runtime's
 * recovery marks it failed (with the output its event log recorded).
 *
 * A `create` that cannot be written is refused with `storage_full` instead: the request
 * has not started, so nothing is lost by saying no, and the message says what to do.
 */
import type { StoredItem } from '../../protocol/output-items';
import type { ResponseObject } from '../../protocol/response-object';
import type { StreamEvent } from '../../protocol/stream-events';
import { describeError } from '../../shared/api-error';
import { isStorageFull, storageFull } from '../../shared/storage-full';
import { Codes } from '../../shared/error-codes';
import type { Chain, ConversationAppend, ResponseStore, SaveOptions } from '../../ports/response-store';
import type { ItemPage, ItemPageQuery, StoredConversation } from '../../ports/conversation-store';

export interface HeldWritesOptions {
  /** How long to wait before retrying held writes when no other write comes (ms). */
  retryMs?: number;
  onHeld?: (id: string, err: unknown) => void;
}

interface Held {
  response: ResponseObject | null;
  events: StreamEvent[];
  /** A terminal save's conversation items: written with the held snapshot, in one transaction. */
  append?: ConversationAppend;
  /** A terminal save's options (its log dropped). */
  options?: SaveOptions;
}


export class HeldWritesStore implements ResponseStore {
  readonly #inner: ResponseStore;
  readonly #held = new Map<string, Held>();
  readonly #retryMs: number;
  readonly #onHeld: (id: string, err: unknown) => void;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #closed = false;
  /** Writes to the inner store run one after another, so a retry never overtakes a newer save. */
  #chain: Promise<unknown> = Promise.resolve();

  constructor(inner: ResponseStore, options: HeldWritesOptions = {}) {
    this.#inner = inner;
    this.#retryMs = options.retryMs ?? 5_000;
    this.#onHeld = options.onHeld ?? ((id, err) => console.error(`Storage is refusing writes; response ${id} is held in memory until it can be written: ${describeError(err)}`));
  }

  /** Ids whose latest state is only in memory (for status reports and tests). */
  get heldIds(): string[] {
    return [...this.#held.keys()];
  }

  async create(response: ResponseObject, inputItems: StoredItem[]): Promise<void> {
    await this.#serial(() => this.#retryHeld());
    try {
      await this.#serial(() => this.#inner.create(response, inputItems));
    } catch (err) {
      throw isStorageFull(err) ? storageFull(err) : err;
    }
  }

  async save(response: ResponseObject, events: StreamEvent[], append?: ConversationAppend, options?: SaveOptions): Promise<void> {
    await this.#write(response.id, { response, events, ...(append ? { append } : {}), ...(options ? { options } : {}) }, () => this.#inner.save(response, events, append, options));
  }

  async appendEvents(responseId: string, events: StreamEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.#write(responseId, { response: null, events }, () => this.#inner.appendEvents(responseId, events));
  }

  async get(id: string): Promise<ResponseObject | undefined> {
    const held = this.#held.get(id)?.response;
    return held ?? (await this.#inner.get(id));
  }

  async delete(id: string): Promise<boolean> {
    const wasHeld = this.#held.delete(id);
    const found = await this.#serial(() => this.#inner.delete(id));
    return found || wasHeld;
  }

  inputItems(responseId: string): Promise<StoredItem[]> {
    return this.#inner.inputItems(responseId);
  }

  async chain(lastId: string): Promise<Chain | undefined> {
    const chain = await this.#inner.chain(lastId);
    if (!chain) return undefined;
    // A held snapshot is newer than the stored one (its terminal save, output included, may be the held write).
    const held = (id: string) => this.#held.get(id)?.response ?? null;
    return {
      ...chain,
      last: held(lastId) ?? chain.last,
      turns: chain.turns.map((turn) => ({ ...turn, output: held(turn.id)?.output ?? turn.output })),
    };
  }

  // Conversation writes are requests that have not started anything: storage full refuses them (507).
  createConversation(conversation: StoredConversation, items: StoredItem[]): Promise<void> {
    return this.#refuseWhenFull(() => this.#inner.createConversation(conversation, items));
  }

  updateConversation(id: string, metadata: Record<string, string>): Promise<StoredConversation | undefined> {
    return this.#refuseWhenFull(() => this.#inner.updateConversation(id, metadata));
  }

  deleteConversation(id: string): Promise<boolean> {
    return this.#serial(() => this.#inner.deleteConversation(id));
  }

  appendConversationItems(id: string, items: StoredItem[]): Promise<boolean> {
    return this.#refuseWhenFull(() => this.#inner.appendConversationItems(id, items));
  }

  deleteConversationItem(id: string, itemId: string): Promise<boolean> {
    return this.#serial(() => this.#inner.deleteConversationItem(id, itemId));
  }

  getConversation(id: string): Promise<StoredConversation | undefined> {
    return this.#inner.getConversation(id);
  }

  conversationItems(id: string): Promise<StoredItem[] | undefined> {
    return this.#inner.conversationItems(id);
  }

  listConversationItems(id: string, query: ItemPageQuery): Promise<ItemPage> {
    return this.#inner.listConversationItems(id, query);
  }

  getConversationItem(id: string, itemId: string): Promise<StoredItem | undefined> {
    return this.#inner.getConversationItem(id, itemId);
  }

  conversationIds(): Promise<string[]> {
    return this.#inner.conversationIds();
  }

  listConversations(): Promise<StoredConversation[]> {
    return this.#inner.listConversations();
  }

  async #refuseWhenFull<T>(write: () => Promise<T>): Promise<T> {
    await this.#serial(() => this.#retryHeld());
    try {
      return await this.#serial(write);
    } catch (err) {
      throw isStorageFull(err) ? storageFull(err) : err;
    }
  }

  async events(responseId: string, after: number): Promise<StreamEvent[]> {
    const stored = await this.#inner.events(responseId, after);
    const held = this.#held.get(responseId)?.events.filter((e) => e.sequence_number > after) ?? [];
    if (held.length === 0) return stored;
    const bySequence = new Map(stored.map((e) => [e.sequence_number, e]));
    for (const event of held) bySequence.set(event.sequence_number, event);
    return [...bySequence.values()].sort((a, b) => a.sequence_number - b.sequence_number);
  }

  async findItem(itemId: string): Promise<StoredItem | undefined> {
    for (const { response } of [...this.#held.values()].reverse()) {
      const item = response?.output.find((i) => i.id === itemId);
      if (item) return item;
    }
    return this.#inner.findItem(itemId);
  }

  failUnfinished(...args: Parameters<ResponseStore['failUnfinished']>): Promise<string[]> {
    return this.#serial(() => this.#inner.failUnfinished(...args));
  }

  listStored() {
    return this.#inner.listStored();
  }

  pruneEventLogs(finishedBefore: number): Promise<number> {
    return this.#serial(() => this.#inner.pruneEventLogs(finishedBefore));
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#inner.close();
  }

  /** Writes through, or holds the write when storage refuses it; other errors propagate. */
  async #write(id: string, write: Held, attempt: () => Promise<void>): Promise<void> {
    await this.#serial(async () => {
      await this.#retryHeld();
      if (this.#held.has(id)) {
        // An earlier write of this response is still held: keep order by holding this one too.
        this.#hold(id, write);
        return;
      }
      try {
        await attempt();
      } catch (err) {
        if (!isStorageFull(err)) throw err;
        this.#hold(id, write);
        this.#onHeld(id, err);
      }
    });
  }

  #hold(id: string, write: Held): void {
    const held = this.#held.get(id) ?? { response: null, events: [] };
    // The held response is the newest snapshot; events accumulate in order.
    const append = write.append ?? held.append;
    const options = write.options ?? held.options;
    this.#held.set(id, { response: write.response ?? held.response, events: [...held.events, ...write.events], ...(append ? { append } : {}), ...(options ? { options } : {}) });
    this.#schedule();
  }

  /** Tries every held write once; what still fails stays held. Runs inside #serial. */
  async #retryHeld(): Promise<void> {
    for (const [id, held] of [...this.#held]) {
      try {
        if (held.response) await this.#inner.save(held.response, held.events, held.append, held.options);
        else await this.#inner.appendEvents(id, held.events);
        // Only drop it if nothing newer was held meanwhile (writes are serialized, so nothing was).
        this.#held.delete(id);
      } catch (err) {
        if (!isStorageFull(err)) {
          // Not a space problem (the row was deleted, the database closed): holding it would never end.
          this.#held.delete(id);
          console.error(`Dropped a held write of response ${id}: ${describeError(err)}`);
        }
        return;
      }
    }
  }

  #schedule(): void {
    if (this.#closed || this.#timer !== null || this.#held.size === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#serial(() => this.#retryHeld()).finally(() => this.#schedule());
    }, this.#retryMs);
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(task, task);
    this.#chain = next.catch(() => undefined);
    return next;
  }
}
