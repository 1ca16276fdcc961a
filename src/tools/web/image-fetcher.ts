/**
 * `ImageFetcher` over `fetch`: the image an `input_image` names by an `https:` URL, fetched
 * by the runtime itself under the web tools' URL policy and handed to engines as a `data:`
 * URL, so no engine (web-llm in this worker, wllama, a provider's upstream) fetches a URL a
 * request names.
 * - `https:` only, every hop: a redirect to `http:` is refused like a first URL would be;
 * - every hop passes the URL policy before it is requested (no loopback, private, link-local
 *   host, never the app's own origin); redirects are followed by hand, at most 5, and one
 *   the browser hides (`opaqueredirect`) is not followed rather than followed unchecked;
 * - no credentials, no referrer; the body is read up to `maxBytes` and no further, the whole
 *   fetch is bounded by `timeoutMs`; what arrives must be an image.
 */
import type { ImageFetch, ImageFetcher } from '../../ports/image-fetcher';
import { bytesToDataUrl } from '../../shared/data-url';
import { readCapped } from '../../shared/read-capped';
import { checkUrl, type UrlPolicy, type UrlVerdict } from './url-policy';

export interface PolicyImageFetcherOptions {
  policy: UrlPolicy;
  /** An image's bytes at most. Default 20 MB. */
  maxBytes?: number;
  /** The whole fetch, redirects and body included, ms. Default 20 000. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
const IMAGE_TIMEOUT_MS = 20_000;
const MAX_REDIRECTS = 5;
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);

const refused = (reason: string): ImageFetch => ({ ok: false, reason });

export function createPolicyImageFetcher(options: PolicyImageFetcherOptions): ImageFetcher {
  const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const maxBytes = options.maxBytes ?? IMAGE_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? IMAGE_TIMEOUT_MS;
  const check = (url: string): UrlVerdict => {
    const verdict = checkUrl(url, options.policy);
    if (verdict.ok && verdict.url.protocol !== 'https:') return { ok: false, reason: 'only https: image URLs are fetched' };
    // The web tools' "unless allowed" does not apply: no setting opens a private host to images a request names.
    return verdict.ok ? verdict : { ok: false, reason: verdict.reason.replace(/; private-network addresses are not fetched unless allowed$/, '; images are fetched from public hosts only') };
  };

  async function fetchChecked(raw: string, signal: AbortSignal): Promise<ImageFetch> {
    let url = raw;
    for (let hops = 0; ; hops++) {
      const verdict = check(url);
      if (!verdict.ok) return refused(hops === 0 ? `${raw} is not fetched: ${verdict.reason}` : `${raw} redirected to ${url}, which is not fetched: ${verdict.reason}`);
      url = verdict.url.href;
      const response = await fetchFn(url, { credentials: 'omit', referrerPolicy: 'no-referrer', redirect: 'manual', headers: { accept: 'image/*' }, signal });
      if (response.type === 'opaqueredirect')
        return refused(`${url} redirected to an address the browser does not show to the runtime, so it was not followed (each address must be checked before it is fetched): give the image's final address`);
      if (REDIRECT_STATUS.has(response.status)) {
        await response.body?.cancel();
        const location = response.headers.get('location');
        if (!location) return refused(`${url} answered HTTP ${response.status} without a Location to go to`);
        if (hops >= MAX_REDIRECTS) return refused(`${raw} redirected more than ${MAX_REDIRECTS} times`);
        url = new URL(location, url).href;
        continue;
      }
      // A fetch that followed a redirect itself (an injected one may): checked after the fact.
      const final = response.url || url;
      const after = final === url ? verdict : check(final);
      if (!after.ok) {
        await response.body?.cancel();
        return refused(`${url} redirected to ${final}, which is not fetched: ${after.reason}`);
      }
      if (!response.ok) {
        await response.body?.cancel();
        return refused(`${final} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
      }
      const declared = Number(response.headers.get('content-length') ?? NaN);
      const bytes = declared > maxBytes ? null : await readCapped(response.body, maxBytes);
      if (!bytes) {
        await response.body?.cancel().catch(() => undefined); // a refused length: never read
        return refused(`${final} is larger than ${maxBytes / 1024 / 1024} MB, the limit for an image`);
      }
      const type = imageType(response.headers.get('content-type'), bytes);
      if (!type) return refused(`${final} is not an image (it is ${mediaType(response.headers.get('content-type')) || 'of no declared type'})`);
      return { ok: true, dataUrl: bytesToDataUrl(bytes, type) };
    }
  }

  return {
    async fetchImage(raw, signal) {
      signal.throwIfAborted();
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        return await fetchChecked(raw, AbortSignal.any([signal, timeout]));
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (timeout.aborted) return refused(`${raw} did not answer within ${timeoutMs / 1000} s`);
        return refused(`${raw} could not be fetched: offline, or its server does not allow cross-origin requests (CORS)${detail(error)}`);
      }
    },
  };
}

function mediaType(header: string | null): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The image's media type: the declared one when it is an image's, else what its first bytes say (a server that answers `application/octet-stream`), else null. */
function imageType(header: string | null, bytes: Uint8Array): string | null {
  const declared = mediaType(header);
  if (declared.startsWith('image/')) return declared;
  if (declared && declared !== 'application/octet-stream' && declared !== 'binary/octet-stream') return null;
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP') return 'image/webp';
  return null;
}

function detail(error: unknown): string {
  return error instanceof Error && error.message ? ` (${error.name}: ${error.message})` : '';
}
