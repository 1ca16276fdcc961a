/**
 * The port through which the server gets the bytes of an image a request names by an
 * `https:` URL. No engine ever fetches a URL from a request (web-llm would from the runtime
 * worker, an upstream provider from its own network): the server asks this port, which
 * fetches under the web tools' URL policy (no loopback, private or link-local host, every
 * redirect checked; size and time capped), and hands the engine a `data:` URL.
 */

export type ImageFetch =
  | {
      ok: true;
      /** The image as a `data:<type>;base64,…` URL. */
      dataUrl: string;
    }
  | {
      ok: false;
      /** What was refused or failed, in words a client can act on (the policy's reason, the HTTP status, the size limit, …). */
      reason: string;
    };

export interface ImageFetcher {
  /**
   * The image at `url` (an `https:` URL) as a `data:` URL, or why not. Answers a refusal or
   * a failure with a reason, never by throwing; only `signal`'s abort rejects.
   */
  fetchImage(url: string, signal: AbortSignal): Promise<ImageFetch>;
}
