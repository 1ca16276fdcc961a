/**
 * Reads a `text/event-stream` body as parsed JSON `data:` payloads (the `[DONE]` sentinel
 * ends it). Used for `/v1/local/models/{id}/load`; responses go through the SDK.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const cancel = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', cancel, { once: true });
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n');
        if (!data) continue;
        if (data === '[DONE]') return;
        yield JSON.parse(data) as unknown;
      }
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    // Leaving early (break, error, abort) closes the stream: the server cancels the load.
    cancel();
  }
}
