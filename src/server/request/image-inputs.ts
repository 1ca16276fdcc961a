/**
 * `input_image` parts — in messages and in tool outputs — reach only a model that sees
 * (`ModelInfo.input_modalities` has `image`). Sent to any other model, they are a 400 naming
 * the model and the part, never dropped: a model that answers as if no image was there
 * misleads whoever asked. Images the model is shown from earlier turns count too.
 * An image comes as a URL (`data:` or `https:`) or as an uploaded file (`file_id`, an image
 * file of the Files API), which the model is shown as a data URL.
 */
import type { StoredItem } from '../../protocol/output-items';
import { invalidRequest, notFound } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { bytesToDataUrl } from '../../shared/data-url';
import type { FilesState } from '../files/files-state';
import type { ServedModel } from '../state/server-state';

interface ImageAt {
  /** Where it is, as a parameter path (`input[2].content[1]`, `input[0].output[3]`). */
  path: string;
  image: { image_url: string | null; file_id: string | null };
}

function imagesIn(item: StoredItem, at: string): ImageAt[] {
  // A computer call's output is one screenshot (the tool is useless to a model that cannot see it).
  if (item.type === 'computer_call_output') return [{ path: `${at}.output`, image: { image_url: item.output.image_url ?? null, file_id: item.output.file_id ?? null } }];
  const parts = item.type === 'message' ? item.content : (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') && typeof item.output !== 'string' ? item.output : [];
  const field = item.type === 'message' ? 'content' : 'output';
  return parts.flatMap((part, j) => (part.type === 'input_image' ? [{ path: `${at}.${field}[${j}]`, image: part }] : []));
}

/**
 * Refuses images the model cannot see. `history`: the earlier items the model is shown
 * (after the latest compaction), named by `historyParam` (`previous_response_id` or `conversation`).
 */
export function checkImageInputs(model: ServedModel, history: readonly StoredItem[], input: readonly StoredItem[], historyParam: string): void {
  const sees = model.info.input_modalities?.includes('image') ?? false;
  const sinceCompaction = history.slice(history.findLastIndex((item) => item.type === 'compaction') + 1);
  const earlier = sinceCompaction.flatMap((item) => imagesIn(item, `item ${item.id}`));
  const fresh = input.flatMap((item, i) => imagesIn(item, `input[${i}]`));
  if (!sees) {
    const [first] = fresh.length ? fresh : earlier;
    if (!first) return;
    const where = fresh.length ? `'${first.path}' is an image` : `the conversation it continues has an image (${first.path})`;
    throw invalidRequest(
      `The model '${model.info.id}' cannot see images: ${where}. Choose a model that takes images (GET /v1/models lists "input_modalities": ["text", "image"]), or send text only.`,
      fresh.length ? first.path : historyParam,
      Codes.invalidValue,
    );
  }
  for (const { path, image } of fresh)
    if (!image.image_url && !image.file_id) throw invalidRequest(`'${path}' has neither image_url nor file_id: send the image as one of them.`, `${path}.image_url`, Codes.missingRequiredParameter);
}

/**
 * `window` with every image named by `file_id` given its bytes as a `data:` URL, for the model
 * (storage keeps the parts as sent). A file of this request that is missing or not an image is
 * a 400 (404 unknown) naming the part; one of an earlier turn that is gone is left out.
 */
export async function withImageFiles(files: FilesState | undefined, window: readonly StoredItem[], inputCount: number): Promise<StoredItem[]> {
  const inputStart = window.length - inputCount;
  const out: StoredItem[] = [];
  for (const [k, item] of window.entries()) {
    const images = imagesIn(item, `input[${k - inputStart}]`).filter((found) => !found.image.image_url && found.image.file_id);
    if (images.length === 0) {
      out.push(item);
      continue;
    }
    if (item.type === 'computer_call_output') {
      const url = await imageDataUrl(files, item.output.file_id!, k >= inputStart ? `input[${k - inputStart}].output.file_id` : null);
      out.push(url ? { ...item, output: { ...item.output, image_url: url } } : item);
      continue;
    }
    const field = item.type === 'message' ? 'content' : 'output';
    const parts = [...((item as { [key: string]: unknown })[field] as Array<{ type: string; image_url?: string | null; file_id?: string | null; text?: string }>)];
    for (const [j, part] of parts.entries()) {
      if (part.type !== 'input_image' || part.image_url || !part.file_id) continue;
      const url = await imageDataUrl(files, part.file_id, k >= inputStart ? `input[${k - inputStart}].${field}[${j}].file_id` : null);
      parts[j] = url ? { ...part, image_url: url } : { type: 'input_text', text: `[An image of an earlier message (${part.file_id}) is no longer available.]` };
    }
    out.push({ ...item, [field]: parts } as StoredItem);
  }
  return out;
}

async function imageDataUrl(files: FilesState | undefined, fileId: string, param: string | null): Promise<string | null> {
  const file = await files?.library.get(fileId);
  const blob = file ? await files!.library.blobOf(file) : undefined;
  if (!file || !blob) {
    if (param === null) return null;
    if (!files) throw invalidRequest('Images by file_id need the Files API, which this runtime does not have: send the image as image_url (a data: or https: URL).', param, Codes.unsupportedParameter);
    throw notFound(`No such File object: ${fileId}`, param, Codes.fileNotFound);
  }
  const type = file.content_type || blob.type;
  if (!type.startsWith('image/')) {
    if (param === null) return null;
    throw invalidRequest(`The file ${fileId} (${file.filename}) is not an image (${type || 'unknown type'}): an input_image's file must be one.`, param, Codes.invalidValue);
  }
  return bytesToDataUrl(new Uint8Array(await blob.arrayBuffer()), type);
}
