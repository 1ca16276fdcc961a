/**
 * A stream's bytes, but never more than `maxBytes` of them in memory: past that the read
 * stops, the rest is cancelled, and the answer is null (the caller says why, e.g. a 413).
 * Used where a request body first arrives (the service worker edge) and where it is
 * parsed (the server), so a huge body is refused before it is ever held whole.
 */
export async function readCapped(stream: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array | null> {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
