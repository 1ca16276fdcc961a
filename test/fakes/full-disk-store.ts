/**
 * A ResponseStore whose disk can be made full: while `full` is set, every write fails the
 * way IndexedDB fails when the origin's quota is used up (a `QuotaExceededError` with an
 * empty message, as Chromium gives it); reads go through. A fake at the storage port.
 */
import type { ResponseStore } from '../../src/ports/response-store';

export class FullDiskStore implements ResponseStore {
  full = false;
  /** Writes refused so far. */
  refused = 0;

  constructor(private readonly inner: ResponseStore) {}

  private guard<T>(write: () => Promise<T>): Promise<T> {
    if (!this.full) return write();
    this.refused++;
    return Promise.reject(new DOMException('', 'QuotaExceededError'));
  }

  create: ResponseStore['create'] = (...args) => this.guard(() => this.inner.create(...args));
  save: ResponseStore['save'] = (...args) => this.guard(() => this.inner.save(...args));
  appendEvents: ResponseStore['appendEvents'] = (...args) => this.guard(() => this.inner.appendEvents(...args));
  delete: ResponseStore['delete'] = (...args) => this.guard(() => this.inner.delete(...args));
  failUnfinished: ResponseStore['failUnfinished'] = (...args) => this.guard(() => this.inner.failUnfinished(...args));
  pruneEventLogs: ResponseStore['pruneEventLogs'] = (...args) => this.guard(() => this.inner.pruneEventLogs(...args));
  createConversation: ResponseStore['createConversation'] = (...args) => this.guard(() => this.inner.createConversation(...args));
  updateConversation: ResponseStore['updateConversation'] = (...args) => this.guard(() => this.inner.updateConversation(...args));
  deleteConversation: ResponseStore['deleteConversation'] = (...args) => this.guard(() => this.inner.deleteConversation(...args));
  appendConversationItems: ResponseStore['appendConversationItems'] = (...args) => this.guard(() => this.inner.appendConversationItems(...args));
  deleteConversationItem: ResponseStore['deleteConversationItem'] = (...args) => this.guard(() => this.inner.deleteConversationItem(...args));
  getConversation: ResponseStore['getConversation'] = (...args) => this.inner.getConversation(...args);
  conversationItems: ResponseStore['conversationItems'] = (...args) => this.inner.conversationItems(...args);
  listConversationItems: ResponseStore['listConversationItems'] = (...args) => this.inner.listConversationItems(...args);
  getConversationItem: ResponseStore['getConversationItem'] = (...args) => this.inner.getConversationItem(...args);
  conversationIds: ResponseStore['conversationIds'] = () => this.inner.conversationIds();
  listConversations: ResponseStore['listConversations'] = () => this.inner.listConversations();
  chain: ResponseStore['chain'] = (...args) => this.inner.chain(...args);
  get: ResponseStore['get'] = (...args) => this.inner.get(...args);
  inputItems: ResponseStore['inputItems'] = (...args) => this.inner.inputItems(...args);
  events: ResponseStore['events'] = (...args) => this.inner.events(...args);
  findItem: ResponseStore['findItem'] = (...args) => this.inner.findItem(...args);
  listStored: ResponseStore['listStored'] = () => this.inner.listStored();
  close(): void {
    this.inner.close();
  }
}
