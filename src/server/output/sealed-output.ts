/**
 * `include: ["reasoning.encrypted_content"]`: finished reasoning items are shown with their
 * content sealed for the client to send back (see encrypted-reasoning.ts). Applied when an
 * answer is presented, never stored: storage keeps the plain item, and a seal is made per
 * answer (each with a fresh IV; any of them opens).
 */
import type { OutputItem } from '../../protocol/output-items';
import type { ResponseObject } from '../../protocol/response-object';
import type { StreamEvent } from '../../protocol/stream-events';
import type { ReasoningSealer } from '../sealing/encrypted-reasoning';
import type { Includes } from './include-filter';

export const ENCRYPTED_REASONING = 'reasoning.encrypted_content';

async function sealItem<T extends OutputItem>(item: T, sealer: ReasoningSealer): Promise<T> {
  // An item still being written is sealed once it is done (output_item.done, the final response).
  if (item.type !== 'reasoning' || item.status === 'in_progress') return item;
  return { ...item, encrypted_content: await sealer.seal(item) };
}

export async function sealResponse(response: ResponseObject, include: Includes, sealer: ReasoningSealer): Promise<ResponseObject> {
  if (!include.has(ENCRYPTED_REASONING)) return response;
  return { ...response, output: await Promise.all(response.output.map((item) => sealItem(item, sealer))) };
}

export async function* sealEvents(events: AsyncIterable<StreamEvent>, include: Includes, sealer: ReasoningSealer): AsyncGenerator<StreamEvent> {
  if (!include.has(ENCRYPTED_REASONING)) return yield* events;
  for await (const event of events) {
    if ('response' in event) yield { ...event, response: await sealResponse(event.response, include, sealer) };
    else if (event.type === 'response.output_item.done') yield { ...event, item: await sealItem(event.item, sealer) };
    else yield event;
  }
}
