/**
 * The Conversations API wire contract (OpenAI's `conversations` resource): request bodies
 * of `POST /v1/conversations`, `POST /v1/conversations/{id}` and
 * `POST /v1/conversations/{id}/items`, and the objects answered.
 */
import { z } from 'zod';
import { Metadata, Tool } from './create-request';
import { InputItem } from './input-item-schemas';
import type { StoredItem } from './output-items';

/** OpenAI's limit on items per create/add call. */
export const MAX_ITEMS_PER_CALL = 20;

/**
 * The items a conversation is given. An `additional_tools` item's tools are tools like a
 * request's (the SDK's own types; a plug-in tool is declared in a create's input instead); a
 * `compaction_trigger` only ends a response's input (it makes that response a compaction).
 */
const Items = z
  .array(InputItem)
  .max(MAX_ITEMS_PER_CALL)
  .superRefine((items, ctx) => {
    items.forEach((item, i) => {
      if (item.type === 'compaction_trigger')
        ctx.addIssue({ code: 'custom', path: [i, 'type'], message: 'A compaction_trigger ends the input of a response (POST /v1/responses); it cannot be a conversation item.' });
      if (item.type !== 'additional_tools') return;
      const tools = z.array(Tool).safeParse(item.tools);
      if (!tools.success) for (const issue of tools.error.issues) ctx.addIssue({ ...issue, path: [i, 'tools', ...issue.path] } as Parameters<typeof ctx.addIssue>[0]);
    });
  });

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
