/**
 * What the runtime accepts from the sandbox frame, checked with zod before anything is
 * routed: the frame already rebuilds and bounds what its workers post (model code can
 * post too), and this is the second check at the runtime's own boundary, with the same
 * bounds, so a message that is malformed or too big is dropped here whatever the frame did.
 */
import { z } from 'zod';
import type { FromFrame, PythonWorkerConfig } from './sandbox-protocol';

const worker = z.string().min(1).max(32);
const call = z.number().int().positive();

export function fromFrameSchema(limits: PythonWorkerConfig): z.ZodType<FromFrame> {
  return z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('ready'), worker, interruptible: z.boolean() }),
    z.strictObject({ kind: z.literal('failed'), worker, message: z.string().max(limits.maxErrorChars) }),
    z.strictObject({ kind: z.literal('output'), worker, call, text: z.string().max(limits.maxOutputChars + 200) }),
    z.strictObject({
      kind: z.literal('done'),
      worker,
      call,
      error: z.string().max(limits.maxErrorChars).nullable(),
      images: z
        .array(z.string().startsWith('data:image/'))
        .refine((images) => images.reduce((sum, image) => sum + image.length, 0) <= limits.maxImageChars, 'images over the allowance'),
      imagesDropped: z.number().int().nonnegative(),
    }),
    z.strictObject({ kind: z.literal('pong'), worker, nonce: z.string().max(64) }),
  ]);
}
