import { readCapped } from './read-capped';

/**
 * What {@link readRequestBody} reads of a request: a `Request` fits, in every browser.
 * `body` is optional because Firefox does not implement `Request.prototype.body` (measured
 * in Firefox ESR 153: `'body' in Request.prototype` is false, in service workers, workers
 * and pages alike); there the bytes are only reachable through `blob()`/`arrayBuffer()`.
 */
export interface RequestBodySource {
  readonly headers: { get(name: string): string | null };
  /** The body as a stream (null: no body); absent where the browser has no request streams. */
  readonly body?: ReadableStream<Uint8Array> | null;
  blob(): Promise<Blob>;
}

/**
 * A request's body, but never more than `maxBytes` of it copied into this context's memory:
 * null when it is larger (the caller answers 413). A declared `Content-Length` over the
 * limit is refused before anything is read. Then:
 * - where `request.body` exists (Chromium, Safari, Node), the stream is read and cancelled
 *   as soon as it passes the limit;
 * - where it does not (Firefox), the body is taken as a Blob — the browser's own handle on
 *   the bytes, which it may keep on disk — whose size is checked before any byte of it is
 *   copied here.
 *
 * Used where a body first arrives (the service worker edge, `localFetch`) and where it is
 * parsed (the server), so both behave alike in every browser.
 *
 * @example
 * const bytes = await readRequestBody(event.request, MAX_BODY_BYTES);
 * if (bytes === null) return bodyTooLargeResponse();
 */
export async function readRequestBody(request: RequestBodySource, maxBytes: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return null;
  if (request.body !== undefined) return readCapped(request.body, maxBytes);
  const blob = await request.blob();
  if (blob.size > maxBytes) return null;
  return new Uint8Array(await blob.arrayBuffer());
}
