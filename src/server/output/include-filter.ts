/**
 * What a client sees of stored objects: a tool's item fields kept in storage (the model needs
 * them in later turns) are shown only when the request asked for them with the `include`
 * value that tool owns (`BuiltinTool.includes`), as OpenAI does. Likewise output text
 * `logprobs` (stored when the create asked for them) only with
 * `include: ["message.output_text.logprobs"]`.
 */
import type { OutputText, StoredItem } from '../../protocol/output-items';
import type { ResponseObject } from '../../protocol/response-object';
import type { StreamEvent } from '../../protocol/stream-events';
import type { ToolRegistry } from '../state/tool-registry';

export type Includes = ReadonlySet<string>;

const LOGPROBS = 'message.output_text.logprobs';

function withoutLogprobs<T extends { type: string }>(part: T): T {
  if (part.type !== 'output_text' || !('logprobs' in part)) return part;
  const { logprobs: _dropped, ...rest } = part as T & OutputText;
  return rest as unknown as T;
}

export function presentItem<T extends StoredItem>(item: T, include: Includes, tools: ToolRegistry): T {
  if (tools.ownerOf(item)) return tools.present(item, include);
  if (item.type === 'message' && item.role === 'assistant' && !include.has(LOGPROBS)) return { ...item, content: item.content.map(withoutLogprobs) };
  return item;
}

export function presentResponse(response: ResponseObject, include: Includes, tools: ToolRegistry): ResponseObject {
  return { ...response, output: response.output.map((item) => presentItem(item, include, tools)) };
}

export function presentEvent(event: StreamEvent, include: Includes, tools: ToolRegistry): StreamEvent {
  if ('response' in event) return { ...event, response: presentResponse(event.response, include, tools) };
  if ('item' in event) return { ...event, item: presentItem(event.item, include, tools) };
  if (include.has(LOGPROBS)) return event;
  if (event.type === 'response.output_text.delta' || event.type === 'response.output_text.done') return event.logprobs.length ? { ...event, logprobs: [] } : event;
  if (event.type === 'response.content_part.added' || event.type === 'response.content_part.done') return { ...event, part: withoutLogprobs(event.part) };
  return event;
}

export async function* presentEvents(events: AsyncIterable<StreamEvent>, include: Includes, tools: ToolRegistry): AsyncGenerator<StreamEvent> {
  for await (const event of events) yield presentEvent(event, include, tools);
}

/** `include` from a query string (`include=a&include=b` or the SDK's `include[]=a`). */
export function includesFromQuery(url: URL): Includes {
  return new Set([...url.searchParams.getAll('include'), ...url.searchParams.getAll('include[]')]);
}
