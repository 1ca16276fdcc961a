/**
 * What a client sees of stored objects: code interpreter `outputs` are kept in storage (the
 * model needs them in later turns) but shown only when the request asked for them with
 * `include: ["code_interpreter_call.outputs"]`, as OpenAI does. Likewise output text
 * `logprobs` (stored when the create asked for them) only with
 * `include: ["message.output_text.logprobs"]`.
 */
import type { OutputText, StoredItem } from '../../protocol/output-items';
import type { ResponseObject } from '../../protocol/response-object';
import type { StreamEvent } from '../../protocol/stream-events';

export type Includes = ReadonlySet<string>;

const LOGPROBS = 'message.output_text.logprobs';

function withoutLogprobs<T extends { type: string }>(part: T): T {
  if (part.type !== 'output_text' || !('logprobs' in part)) return part;
  const { logprobs: _dropped, ...rest } = part as T & OutputText;
  return rest as unknown as T;
}

export function presentItem<T extends StoredItem>(item: T, include: Includes): T {
  if (item.type === 'code_interpreter_call' && !include.has('code_interpreter_call.outputs')) return { ...item, outputs: null };
  if (item.type === 'file_search_call' && !include.has('file_search_call.results')) return { ...item, results: null };
  if (item.type === 'message' && item.role === 'assistant' && !include.has(LOGPROBS)) return { ...item, content: item.content.map(withoutLogprobs) };
  return item;
}

export function presentResponse(response: ResponseObject, include: Includes): ResponseObject {
  return { ...response, output: response.output.map((item) => presentItem(item, include)) };
}

export function presentEvent(event: StreamEvent, include: Includes): StreamEvent {
  if ('response' in event) return { ...event, response: presentResponse(event.response, include) };
  if ('item' in event) return { ...event, item: presentItem(event.item, include) };
  if (include.has(LOGPROBS)) return event;
  if (event.type === 'response.output_text.delta' || event.type === 'response.output_text.done') return event.logprobs.length ? { ...event, logprobs: [] } : event;
  if (event.type === 'response.content_part.added' || event.type === 'response.content_part.done') return { ...event, part: withoutLogprobs(event.part) };
  return event;
}

export async function* presentEvents(events: AsyncIterable<StreamEvent>, include: Includes): AsyncGenerator<StreamEvent> {
  for await (const event of events) yield presentEvent(event, include);
}

/** `include` from a query string (`include=a&include=b` or the SDK's `include[]=a`). */
export function includesFromQuery(url: URL): Includes {
  return new Set([...url.searchParams.getAll('include'), ...url.searchParams.getAll('include[]')]);
}
