/** Content parts a client sends (in messages and tool outputs), as zod schemas: strict, an unknown field is a 400. */
import { z } from 'zod';

export const InputTextPart = z.strictObject({ type: z.literal('input_text'), text: z.string() });
export const InputImagePart = z.strictObject({
  type: z.literal('input_image'),
  image_url: z.string().nullish(),
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
