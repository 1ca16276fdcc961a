/**
 * The conversations part of the storage port (Conversations API). A conversation is an
 * ordered list of items that outlives the responses that added them: deleting a conversation
 * deletes its items, never a response (OpenAI's rule), and deleting a response leaves the
 * items it added. Every method is one IndexedDB transaction.
 */
import type { StoredItem } from '../protocol/output-items';

export interface StoredConversation {
  id: string;
  created_at: number;
  metadata: Record<string, string>;
}

export interface ItemPageQuery {
  /** Start after this item (its id must be in the conversation; the route checks). */
  after: string | null;
  limit: number;
  order: 'asc' | 'desc';
}

export interface ItemPage {
  items: StoredItem[];
  has_more: boolean;
}

export interface ConversationStore {
  createConversation(conversation: StoredConversation, items: StoredItem[]): Promise<void>;
  getConversation(id: string): Promise<StoredConversation | undefined>;
  /** Replaces the metadata; undefined when the conversation does not exist. */
  updateConversation(id: string, metadata: Record<string, string>): Promise<StoredConversation | undefined>;
  /** Removes the conversation and its items. False when it did not exist. */
  deleteConversation(id: string): Promise<boolean>;
  /** Appends at the end, in order, atomically. False (nothing written) when the conversation does not exist. */
  appendConversationItems(id: string, items: StoredItem[]): Promise<boolean>;
  /** Every item in order, in one range read: a turn's context. Undefined when the conversation does not exist. */
  conversationItems(id: string): Promise<StoredItem[] | undefined>;
  /** One page in `order`; reads only the page (a bounded range), not the whole conversation. */
  listConversationItems(id: string, query: ItemPageQuery): Promise<ItemPage>;
  getConversationItem(id: string, itemId: string): Promise<StoredItem | undefined>;
  /** False when the conversation has no item with this id. */
  deleteConversationItem(id: string, itemId: string): Promise<boolean>;
  /** Every stored conversation, in no particular order (the local list endpoint sorts). */
  listConversations(): Promise<StoredConversation[]>;
  /** Ids of every stored conversation (for retention). */
  conversationIds(): Promise<string[]>;
}
