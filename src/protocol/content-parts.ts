/**
 * Input content parts as the server returns them (in stored messages and tool outputs):
 * OpenAI's `ResponseInputText`, `ResponseInputImage`, `ResponseInputFile`.
 */
import { z } from 'zod';

export const InputText = z.object({ type: z.literal('input_text'), text: z.string() });
export const InputImage = z.object({
  type: z.literal('input_image'),
  image_url: z.string().nullable(),
  file_id: z.string().nullable(),
  detail: z.enum(['low', 'high', 'auto', 'original']),
});
export type InputImage = z.infer<typeof InputImage>;
/** A file in a message or a tool output, as stored and listed: by id, or inline (`file_data` as sent). */
export const InputFile = z.object({
  type: z.literal('input_file'),
  file_id: z.string().nullable(),
  filename: z.string().optional(),
  file_data: z.string().optional(),
});
export type InputFile = z.infer<typeof InputFile>;
