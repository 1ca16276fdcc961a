/**
 * Type test, run by Vitest's typecheck in the unit project (`npm run test:unit`): what our
 * schemas describe is assignable to the `openai` package's own types. If a field drifts,
 * the unit run fails here (and `tsc` does too).
 *
 * One documented divergence: the SDK types `usage` as optional and never null, while the
 * hosted API and the Open Responses document send `usage: null` until it is known (in
 * `response.created`, `queued`, `in_progress`). We keep the wire behaviour and check
 * everything else — `usage` itself, once present, must be the SDK's `ResponseUsage`.
 */
import { expectTypeOf, test } from 'vitest';
import type {
  Response,
  ResponseItem,
  ResponseSteerAcceptedEvent,
  ResponseSteerFailedEvent,
  ResponseSteerPendingEvent,
  ResponseStreamEvent,
  ResponseUsage,
} from 'openai/resources/responses/responses';
import type { SteerAcceptedEvent, SteerFailedEvent, SteerPendingEvent } from '../../src/protocol/steer-frames';
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

test('our Response is the SDK Response (usage aside, see above)', () => {
  expectTypeOf<WithKnownUsage<ResponseObject>>().toExtend<Response>();
});

test('our stream events are SDK stream events', () => {
  expectTypeOf<WithKnownUsage<StreamEvent>>().toExtend<ResponseStreamEvent>();
});

test('our stored items are SDK response items', () => {
  expectTypeOf<StoredItem>().toExtend<ResponseItem>();
});

test('our usage is the SDK usage', () => {
  expectTypeOf<Usage>().toExtend<ResponseUsage>();
});

test('our conversation objects and items are the SDK conversation types', () => {
  expectTypeOf<ConversationObject>().toExtend<Conversation>();
  expectTypeOf<ConversationDeleted>().toExtend<ConversationDeletedResource>();
  expectTypeOf<StoredItem>().toExtend<ConversationItem>();
  // first_id/last_id: strings on every non-empty page; an empty page has no first or last item and sends null.
  expectTypeOf<OurItemList & { first_id: string; last_id: string }>().toExtend<ConversationItemList>();
});

test('our steering events are the SDK steering events', () => {
  expectTypeOf<SteerAcceptedEvent>().toExtend<ResponseSteerAcceptedEvent>();
  // `steer.input` is the client's input echoed as it was sent (its parts are the client's, not re-typed here).
  type EchoedAsString = Omit<SteerFailedEvent, 'steer'> & { steer: Omit<SteerFailedEvent['steer'], 'input'> & { input: string } };
  expectTypeOf<EchoedAsString>().toExtend<ResponseSteerFailedEvent>();
  expectTypeOf<SteerPendingEvent>().toExtend<ResponseSteerPendingEvent>();
});
