/**
 * The one builder of `text/event-stream` responses, for every route that streams
 * (responses, their replay, model downloads): events as SSE, then `data: [DONE]`.
 */
import { SSE_DONE, encodeSseEvent } from '../../../protocol/sse';

/**
 * The body pulls `events` one at a time (no read-ahead: a slow reader holds the producer
 * back). `onCancel` runs at once when the reader goes away, before the iterator is
 * returned: a `return()` waits for the event the iterator is waiting for, so what must stop
 * now (a run, a download) is stopped through `onCancel`.
 *
 * @example
 * return sseResponse(presentStream(run.log.follow(-1), presentation), () => run.stop('disconnect'));
 */
export function sseResponse(events: AsyncIterable<{ type: string }>, onCancel: () => void = () => {}): Response {
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
