/**
 * The Conversations API wire contract (OpenAI's `conversations` resource): request bodies
 * of `POST /v1/conversations`, `POST /v1/conversations/{id}` and
 * `POST /v1/conversations/{id}/items`, and the objects answered.
 */
import { z } from 'zod';
import { Metadata } from './create-request';
import { InputItem } from './input-item-schemas';
import type { StoredItem } from './output-items';

/** OpenAI's limit on items per create/add call. */
export const MAX_ITEMS_PER_CALL = 20;

const Items = z.array(InputItem).max(MAX_ITEMS_PER_CALL);

export const ConversationCreateRequest = z.strictObject({
  items: Items.nullish(),
  metadata: Metadata.nullish(),
});
export type ConversationCreateRequest = z.infer<typeof ConversationCreateRequest>;

export const ConversationUpdateRequest = z.strictObject({
  metadata: Metadata.nullable(),
});
export type ConversationUpdateRequest = z.infer<typeof ConversationUpdateRequest>;

export const ConversationItemsCreateRequest = z.strictObject({
  items: Items,
});
export type ConversationItemsCreateRequest = z.infer<typeof ConversationItemsCreateRequest>;

export const ConversationObject = z.object({
  id: z.string(),
  object: z.literal('conversation'),
  created_at: z.number().int(),
  metadata: z.record(z.string(), z.string()),
});
export type ConversationObject = z.infer<typeof ConversationObject>;

export const ConversationDeleted = z.object({
  id: z.string(),
  object: z.literal('conversation.deleted'),
  deleted: z.literal(true),
});
export type ConversationDeleted = z.infer<typeof ConversationDeleted>;

/** A page of conversation items (`first_id`/`last_id` are null on an empty page). */
export interface ConversationItemList {
  object: 'list';
  data: StoredItem[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}
