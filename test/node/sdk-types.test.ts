/**
 * Compile-time proof (checked by `tsc` in `npm test`) that what our schemas describe is
 * assignable to the `openai` package's own types. If a field drifts, `tsc` fails here.
 *
 * One documented divergence: the SDK types `usage` as optional and never null, while the
 * hosted API and the Open Responses document send `usage: null` until it is known (in
 * `response.created`, `queued`, `in_progress`). We keep the wire behaviour and check
 * everything else — `usage` itself, once present, must be the SDK's `ResponseUsage`.
 */
import { expect, test } from 'vitest';
import type { Response, ResponseItem, ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses';
import type { ResponseObject, Usage } from '../../src/protocol/response-object';
import type { StoredItem } from '../../src/protocol/output-items';
import type { StreamEvent } from '../../src/protocol/stream-events';
import type { Conversation, ConversationDeletedResource } from 'openai/resources/conversations/conversations';
import type { ConversationItem, ConversationItemList } from 'openai/resources/conversations/items';
import type { ConversationDeleted, ConversationItemList as OurItemList, ConversationObject } from '../../src/protocol/conversation';

type WithKnownUsage<T> = T extends { response: ResponseObject }
  ? Omit<T, 'response'> & { response: WithKnownUsage<ResponseObject> }
  : T extends ResponseObject
    ? Omit<T, 'usage'> & { usage?: Usage }
    : T;

const asSdkResponse = (r: WithKnownUsage<ResponseObject>): Response => r;
const asSdkEvent = (e: WithKnownUsage<StreamEvent>): ResponseStreamEvent => e;
const asSdkItem = (i: StoredItem): ResponseItem => i;
const asSdkUsage = (u: Usage): ResponseUsage => u;

const asSdkConversation = (c: ConversationObject): Conversation => c;
const asSdkConversationDeleted = (c: ConversationDeleted): ConversationDeletedResource => c;
const asSdkConversationItem = (i: StoredItem): ConversationItem => i;
// first_id/last_id: strings on every non-empty page; an empty page has no first or last item and sends null.
const asSdkItemList = (l: OurItemList & { first_id: string; last_id: string }): ConversationItemList => l;

test('our conversation objects and items are the SDK types (checked by tsc)', () => {
  expect([asSdkConversation, asSdkConversationDeleted, asSdkConversationItem, asSdkItemList].every((f) => typeof f === 'function')).toBe(true);
});

test('our Response, stream events and stored items are the SDK types (checked by tsc)', () => {
  expect([asSdkResponse, asSdkEvent, asSdkItem, asSdkUsage].every((f) => typeof f === 'function')).toBe(true);
});
