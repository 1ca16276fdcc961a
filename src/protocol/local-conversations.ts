/**
 * `GET /v1/local/conversations` (a local extension: OpenAI's Conversations API has no list
 * endpoint; its dashboard lists conversations through a private one). Every stored
 * conversation as OpenAI's `conversation` object plus two local fields, newest activity
 * first by default, in OpenAI's cursor pagination (`after`, `limit` 1–100, `order`):
 * this is what the app's sidebar is, so it needs no database of its own.
 * zod's mini build (the UI bundles it); answers are not strict, a newer runtime may add a field.
 */
import * as z from 'zod/mini';

export const LocalConversation = z.object({
  id: z.string(),
  object: z.literal('conversation'),
  created_at: z.number(),
  metadata: z.record(z.string(), z.string()),
  /** Unix seconds: the last response created in it (its `created_at` when none). The list is ordered by this. */
  updated_at: z.number(),
  /** The newest response of it still queued or in progress (it joins the conversation when it finishes), if any. */
  running_response_id: z.nullable(z.string()),
});
export type LocalConversation = z.infer<typeof LocalConversation>;

export const LocalConversationList = z.object({
  object: z.literal('list'),
  data: z.array(LocalConversation),
  first_id: z.nullable(z.string()),
  last_id: z.nullable(z.string()),
  has_more: z.boolean(),
});
export type LocalConversationList = z.infer<typeof LocalConversationList>;
