/**
 * What a client sees of stored objects: code interpreter `outputs` are kept in storage (the
 * model needs them in later turns) but shown only when the request asked for them with
 * `include: ["code_interpreter_call.outputs"]`, as OpenAI does.
 */
import type { StoredItem } from '../protocol/output-items';
import type { ResponseObject } from '../protocol/response-object';
import type { StreamEvent } from '../protocol/stream-events';

export type Includes = ReadonlySet<string>;

export function presentItem<T extends StoredItem>(item: T, include: Includes): T {
  if (item.type === 'code_interpreter_call' && !include.has('code_interpreter_call.outputs')) return { ...item, outputs: null };
  return item;
}

export function presentResponse(response: ResponseObject, include: Includes): ResponseObject {
  return { ...response, output: response.output.map((item) => presentItem(item, include)) };
}

export function presentEvent(event: StreamEvent, include: Includes): StreamEvent {
  if ('response' in event) return { ...event, response: presentResponse(event.response, include) };
  if ('item' in event) return { ...event, item: presentItem(event.item, include) };
  return event;
}

export async function* presentEvents(events: AsyncIterable<StreamEvent>, include: Includes): AsyncGenerator<StreamEvent> {
  for await (const event of events) yield presentEvent(event, include);
}

/** `include` from a query string (`include=a&include=b` or the SDK's `include[]=a`). */
export function includesFromQuery(url: URL): Includes {
  return new Set([...url.searchParams.getAll('include'), ...url.searchParams.getAll('include[]')]);
}
