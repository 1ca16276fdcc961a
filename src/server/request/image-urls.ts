/**
 * Images named by URL, as a model that sees is shown them: a `data:` URL as it is; an
 * `https:` URL fetched by the runtime through the `ImageFetcher` port (the web tools' URL
 * policy: no loopback, private or link-local host, every redirect checked, size and time
 * capped) and shown as a `data:` URL. So no engine — web-llm in the runtime worker, an
 * upstream provider — ever fetches a URL a request names. (Images by `file_id` are read from
 * the Files API: image-inputs.ts.)
 *
 * An image of this request's input that cannot be fetched is a 400 naming the part and
 * saying why, and nothing later is fetched. One of an earlier turn (the history the request
 * continues) is shown as a note instead, as a deleted file is: an image host that is down
 * today must not make a whole conversation unanswerable. URLs the protocol refuses (any
 * other scheme: a row stored before that rule) are never fetched.
 */
import type { StoredItem } from '../../protocol/output-items';
import { acceptedImageUrl } from '../../protocol/input-parts';
import type { ImageFetch, ImageFetcher } from '../../ports/image-fetcher';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';

type Part = { type: string; image_url?: string | null; file_id?: string | null; text?: string };

/** The content parts of an item that may hold images (messages, tool outputs), and their field. */
function partsOf(item: StoredItem): { field: 'content' | 'output'; parts: readonly Part[] } | null {
  if (item.type === 'message') return { field: 'content', parts: item.content as readonly Part[] };
  if ((item.type === 'function_call_output' || item.type === 'custom_tool_call_output') && typeof item.output !== 'string') return { field: 'output', parts: item.output as readonly Part[] };
  return null;
}

const fetchedUrl = (url: string) => url.length > 0 && !/^data:/i.test(url);

/**
 * `window` with every image named by a URL other than `data:` given its bytes as a `data:`
 * URL (storage keeps the parts as sent). The last `inputCount` items are the request's input.
 */
export async function withFetchedImages(fetcher: ImageFetcher | undefined, window: readonly StoredItem[], inputCount: number, signal: AbortSignal): Promise<StoredItem[]> {
  const inputStart = window.length - inputCount;
  // One fetch per URL per request, however often the conversation shows it.
  const fetches = new Map<string, Promise<ImageFetch>>();
  const fetchOnce = (url: string): Promise<ImageFetch> => {
    if (!fetcher) return Promise.resolve({ ok: false, reason: `${shortUrl(url)} is not fetched: this runtime fetches no image URLs` });
    let pending = fetches.get(url);
    if (!pending) fetches.set(url, (pending = fetcher.fetchImage(url, signal)));
    return pending;
  };
  const out: StoredItem[] = [];
  for (const [k, item] of window.entries()) {
    const found = partsOf(item);
    if (!found || !found.parts.some((p) => p.type === 'input_image' && p.image_url && fetchedUrl(p.image_url))) {
      out.push(item);
      continue;
    }
    const parts = [...found.parts];
    for (const [j, part] of parts.entries()) {
      const url = part.type === 'input_image' ? part.image_url : null;
      if (!url || !fetchedUrl(url)) continue;
      const fresh = k >= inputStart;
      const got: ImageFetch = acceptedImageUrl(url) ? await fetchOnce(url) : { ok: false, reason: `${shortUrl(url)} is not fetched: only data: and https: image URLs are` };
      if (got.ok) parts[j] = { ...part, image_url: got.dataUrl };
      else if (fresh) {
        const param = `input[${k - inputStart}].${found.field}[${j}].image_url`;
        throw invalidRequest(
          `The image at '${param}' could not be given to the model: ${got.reason}. Send its bytes as a data: URL, upload it to /v1/files and give its file_id, or serve it from a public https: address that allows cross-origin requests.`,
          param,
          Codes.invalidImageUrl,
        );
      } else parts[j] = { type: 'input_text', text: `[An image of an earlier message is not shown: ${got.reason}.]` };
    }
    out.push({ ...item, [found.field]: parts } as StoredItem);
  }
  return out;
}

/** A URL as a note quotes it: never a whole long one. */
function shortUrl(url: string): string {
  return url.length > 200 ? `${url.slice(0, 200)}…` : url;
}
