/** Content parts a client sends (in messages and tool outputs), as zod schemas: strict, an unknown field is a 400. */
import { z } from 'zod';

export const InputTextPart = z.strictObject({ type: z.literal('input_text'), text: z.string() });
export const InputImagePart = z.strictObject({
  type: z.literal('input_image'),
  image_url: z.string().nullish(),
  file_id: z.string().nullish(),
  detail: z.enum(['low', 'high', 'auto', 'original']).default('auto'),
});
export const InputFilePart = z.strictObject({
  type: z.literal('input_file'),
  file_id: z.string().nullish(),
  file_data: z.string().optional(),
  file_url: z.string().optional(),
  filename: z.string().optional(),
  detail: z.enum(['low', 'high', 'auto']).optional(),
});
