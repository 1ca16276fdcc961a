/**
 * Requests as Firefox has them: no `Request.prototype.body` (measured in Firefox ESR 153 in
 * pages, workers and service workers; `'body' in request` is false), so the bytes can only
 * be had whole, through `blob()`/`arrayBuffer()`/`text()`.
 */
import type { RequestBodySource } from '../../src/shared/read-request-body';

/** A Blob that counts how often its bytes were copied out. */
export class CountingBlob extends Blob {
  copies = 0;
  override async arrayBuffer(): Promise<ArrayBuffer> {
    this.copies++;
    return super.arrayBuffer();
  }
  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    this.copies++;
    return super.bytes();
  }
  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    this.copies++;
    return super.stream();
  }
  override async text(): Promise<string> {
    this.copies++;
    return super.text();
  }
}

/**
 * What a request-body reader may use of a request in Firefox: url, method, headers and
 * `blob()` — and no `body` member at all. Records each Blob it handed out.
 */
export class StreamlessRequest implements RequestBodySource {
  readonly headers: Headers;
  readonly blobs: CountingBlob[] = [];
  constructor(
    readonly url: string,
    readonly method: string,
    private readonly parts: BlobPart[],
    headers: HeadersInit = {},
  ) {
    this.headers = new Headers(headers);
  }

  async blob(): Promise<Blob> {
    const blob = new CountingBlob(this.parts);
    this.blobs.push(blob);
    return blob;
  }
}

/**
 * A real `Request` (for code typed against `Request`, such as the server) as Firefox shows
 * it: `body` is not there (`'body' in request` is false, reading it gives undefined);
 * everything else is the real request's.
 */
export function withoutBodyStream(request: Request): Request {
  return new Proxy(request, {
    has: (target, key) => key !== 'body' && Reflect.has(target, key),
    get(target, key) {
      if (key === 'body') return undefined;
      const value: unknown = Reflect.get(target, key, target);
      // Methods run on the real request (its internal slots are not the proxy's).
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
