/**
 * The one step between a response (or its events) and a client: the `include` filter,
 * reasoning sealed for `include: ["reasoning.encrypted_content"]`, and — for a stream that
 * asked for it — obfuscation padding, always in that order. Every route that answers with a
 * response or its events goes through here, so a new view of a response (a stream replay, a
 * WebSocket) cannot forget one of them.
 */
import type { ResponseObject } from '../../protocol/response-object';
import type { StreamEvent } from '../../protocol/stream-events';
import type { ReasoningSealer } from '../sealing/encrypted-reasoning';
import { presentEvents, presentResponse, type Includes } from './include-filter';
import { obfuscated } from './obfuscation';
import { sealEvents, sealResponse } from './sealed-output';
import type { ToolRegistry } from '../state/tool-registry';

/** How one answer is shown: what the request included, the origin's sealer, and padding. */
export interface Presentation {
  include: Includes;
  sealer: ReasoningSealer;
  /** The builtin tools, whose `include` values hide parts of their items. */
  tools: ToolRegistry;
  /** `stream_options.include_obfuscation` (streams only). */
  obfuscate?: boolean;
}

export function presentSnapshot(response: ResponseObject, presentation: Presentation): Promise<ResponseObject> {
  return sealResponse(presentResponse(response, presentation.include, presentation.tools), presentation.include, presentation.sealer);
}

export function presentStream(events: AsyncIterable<StreamEvent>, presentation: Presentation): AsyncIterable<StreamEvent> {
  const shown = sealEvents(presentEvents(events, presentation.include, presentation.tools), presentation.include, presentation.sealer);
  return presentation.obfuscate ? obfuscated(shown) : shown;
}
