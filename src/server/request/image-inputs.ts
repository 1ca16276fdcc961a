/**
 * `input_image` parts — in messages and in tool outputs — reach only a model that sees
 * (`ModelInfo.input_modalities` has `image`). Sent to any other model, they are a 400 naming
 * the model and the part, never dropped: a model that answers as if no image was there
 * misleads whoever asked. Images the model is shown from earlier turns count too.
 * An image must come as a URL (`data:` or `https:`): `file_id`s need the Files API.
 */
import type { StoredItem } from '../../protocol/output-items';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import type { ServedModel } from '../server-state';

interface ImageAt {
  /** Where it is, as a parameter path (`input[2].content[1]`, `input[0].output[3]`). */
  path: string;
  image: { image_url: string | null; file_id: string | null };
}

function imagesIn(item: StoredItem, at: string): ImageAt[] {
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
    if (!image.image_url)
      throw invalidRequest(`'${path}' names an image by file_id, which this runtime cannot read (it has no Files API): send the image as image_url, a data: or https: URL.`, `${path}.file_id`, Codes.invalidValue);
}
