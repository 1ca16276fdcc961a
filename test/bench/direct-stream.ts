/** What the benchmarks measure inside a worker (no transport at all). */
export interface DirectStreamTiming {
  /** ms from calling the server to the first body byte. */
  firstByteMs: number;
  /** ms from calling the server to the first `response.output_text.delta`. */
  firstDeltaMs: number;
  /** ms from calling the server to the end of the body. */
  totalMs: number;
  deltas: number;
}

/**
 * Calls the server function in the current thread and consumes an SSE body, counting
 * text deltas: the no-transport baseline of `npm run bench:pipeline` (and a diagnostic path
 * of `bench:wasm`).
 */
export async function timeDirectStream(
  handler: (request: Request) => Promise<Response>,
  origin: string,
  body: string,
): Promise<DirectStreamTiming> {
  const t0 = performance.now();
  const response = await handler(
    new Request(new URL('/v1/responses', origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }),
  );
  if (!response.ok || !response.body) throw new Error(`server answered ${response.status}: ${await response.text()}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let firstByteMs = -1;
  let firstDeltaMs = -1;
  let deltas = 0;
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (firstByteMs < 0) firstByteMs = performance.now() - t0;
    buffered += value;
    // Count whole events only; an event may be split across chunks.
    const cut = buffered.lastIndexOf('\n\n');
    if (cut < 0) continue;
    const n = countOccurrences(buffered.slice(0, cut), 'event: response.output_text.delta');
    if (n > 0 && firstDeltaMs < 0) firstDeltaMs = performance.now() - t0;
    deltas += n;
    buffered = buffered.slice(cut + 2);
  }
  return { firstByteMs, firstDeltaMs, totalMs: performance.now() - t0, deltas };
}

function countOccurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}
