import { expect, test } from 'vitest';
import { createApi, type LoadProgress } from './api';

const ORIGIN = 'http://app.test';

/** A fetch answering the load route with `text` as an SSE body, one byte per chunk; records a cancel. */
function sseFetch(text: string, chunkBytes = 1) {
  const bytes = new TextEncoder().encode(text);
  const seen = { cancelled: false };
  const fetchFn = (async () => {
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return; // stays open until cancelled, like a live download
        controller.enqueue(bytes.slice(at, at + chunkBytes));
        at += chunkBytes;
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  }) as typeof fetch;
  return { fetchFn, seen };
}

test('model download progress is decoded when CRLF line ends are split between \\r and \\n', async () => {
  // One event whose JSON spans two `data:` lines (joined with '\n' per the SSE rules), CRLF
  // line ends, delivered a byte at a time: every '\r' ends one chunk and its '\n' starts the next.
  const text =
    'event: progress\r\ndata: {"type":"progress","model":"m","phase":"download",\r\ndata: "progress":0.5,"text":"half é"}\r\n\r\n' +
    'event: ready\r\ndata: {"type":"ready","model":"m"}\r\n\r\n' +
    'data: [DONE]\r\n\r\n';
  const { fetchFn, seen } = sseFetch(text);
  const progress: LoadProgress[] = [];
  await createApi(fetchFn, ORIGIN).loadModel('m', (p) => progress.push(p), new AbortController().signal);
  expect(progress).toEqual([{ type: 'progress', model: 'm', phase: 'download', progress: 0.5, text: 'half é' }]);
  // Leaving after `ready` closes the stream.
  expect(seen.cancelled).toBe(true);
});

test('an error event rejects with its message and code', async () => {
  const { fetchFn } = sseFetch('data: {"type":"error","error":{"message":"No space left.","code":"storage_full"}}\n\ndata: [DONE]\n\n', 5);
  await expect(createApi(fetchFn, ORIGIN).loadModel('m', () => {}, new AbortController().signal)).rejects.toMatchObject({
    message: 'No space left.',
    code: 'storage_full',
  });
});

test('aborting the download cancels the stream and rejects with the reason', async () => {
  const { fetchFn, seen } = sseFetch('data: {"type":"progress","model":"m","phase":"download","progress":0.1,"text":""}\n\n', 64);
  const abort = new AbortController();
  const reason = new Error('user closed the dialog');
  const loading = createApi(fetchFn, ORIGIN).loadModel('m', () => abort.abort(reason), abort.signal);
  await expect(loading).rejects.toBe(reason);
  expect(seen.cancelled).toBe(true);
});
