/** A stream of events as an SSE response body, ending with `data: [DONE]`. */
import { SSE_DONE, encodeSseEvent } from '../protocol/sse';
import type { StreamEvent } from '../protocol/stream-events';

export function sseResponse(events: AsyncIterable<StreamEvent>, onCancel: () => void = () => {}): Response {
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        controller.enqueue(encoder.encode(SSE_DONE));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(encodeSseEvent(next.value)));
    },
    async cancel() {
      onCancel();
      await iterator.return?.(undefined);
    },
  });
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
  });
}
