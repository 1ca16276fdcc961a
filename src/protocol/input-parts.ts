/** Content parts a client sends (in messages and tool outputs), as zod schemas: strict, an unknown field is a 400. */
import { z } from 'zod';

export const InputTextPart = z.strictObject({ type: z.literal('input_text'), text: z.string() });

/**
 * Whether an image URL is one a request may name: a `data:` URL (the bytes inline) or an
 * `https:` URL, which the runtime fetches itself under the web tools' URL policy and hands
 * to the model as a `data:` URL (server/request/image-urls.ts). Nothing else is ever fetched.
 */
export function acceptedImageUrl(url: string): boolean {
  return /^data:/i.test(url) || /^https:/i.test(url);
}

/** An `image_url` as sent; empty means "none" (a part needs it or a `file_id`: image-inputs.ts). */
const ImageUrl = z.string().check((ctx) => {
  const url = ctx.value;
  if (url === '' || acceptedImageUrl(url)) return;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  ctx.issues.push({
    code: 'custom',
    input: url,
    message: `${scheme ? `${scheme.toLowerCase()}: URLs are not accepted` : 'not an absolute URL'}. An image is a data: URL (data:image/png;base64,…), an https: URL (fetched by the runtime: public hosts only, up to 20 MB), or an uploaded image given as file_id instead of image_url.`,
  });
});

export const InputImagePart = z.strictObject({
  type: z.literal('input_image'),
  image_url: ImageUrl.nullish(),
  file_id: z.string().nullish(),
  detail: z.enum(['low', 'high', 'auto', 'original']).default('auto'),
});
/**
 * A file in a message: an uploaded one (`file_id`) or its bytes inline (`file_data`, a data URL
 * or base64, with its `filename`). Its text is what the model is shown. `file_url` is refused
 * (the runtime fetches nothing a request names).
 */
export const InputFilePart = z.strictObject({
  type: z.literal('input_file'),
  file_id: z.string().min(1).nullish(),
  file_data: z.string().min(1).optional(),
  file_url: z.string().optional(),
  filename: z.string().min(1).max(255).optional(),
  detail: z.enum(['auto', 'low', 'high']).optional(),
  prompt_cache_breakpoint: z.unknown().optional(),
});
