/**
 * `image_generation_call` items as history. No engine here generates images, and the
 * `image_generation` tool itself is a 400 that says so (protocol/create-request.ts); but a client
 * that keeps its own history may replay a conversation that went through OpenAI, or a provider
 * whose upstream generated an image. Its calls are taken back, stored, listed and shown to the
 * model as the note that an image was made (its revised prompt), never run again.
 */
import { z } from 'zod';
import type { ConversationItem } from '../../chat/chat-format';
import type { BuiltinTool } from '../../ports/builtin-tool';
import type { StoredItem } from '../../protocol/output-items';
import { newId } from '../../shared/ids';

/** The SDK's `ResponseInputItem.ImageGenerationCall` (openai 7.59), strict; `result` is base64 image data. */
export const ImageGenerationCallInput = z.strictObject({
  type: z.literal('image_generation_call'),
  id: z.string().min(1).max(200).optional(),
  status: z.enum(['in_progress', 'completed', 'generating', 'failed']),
  result: z.string().nullable(),
  action: z.enum(['generate', 'edit', 'auto']).nullish(),
  background: z.enum(['transparent', 'opaque', 'auto']).nullish(),
  output_format: z.enum(['png', 'webp', 'jpeg', 'gif', 'svg']).nullish(),
  quality: z.enum(['low', 'medium', 'high', 'xhigh', 'max', 'auto']).nullish(),
  revised_prompt: z.string().max(32_000).nullish(),
  size: z.string().max(40).nullish(),
  error: z.strictObject({ code: z.string().nullable(), message: z.string().max(4000), param: z.string().nullable(), type: z.string(), moderation_details: z.unknown().optional() }).optional(),
  svg_usage: z.record(z.string(), z.unknown()).optional(),
});
type ImageGenerationCall = z.infer<typeof ImageGenerationCallInput>;

/** What the model reads of it in a later turn: that an image was (or was not) made, and of what. */
function view(stored: StoredItem): ConversationItem[] {
  const call = stored as unknown as ImageGenerationCall;
  const about = call.revised_prompt ? `: ${call.revised_prompt}` : '';
  const text = call.status === 'failed' ? `[Image generation failed${call.error ? `: ${call.error.message}` : ''}]` : `[An image was generated${about}]`;
  return [{ type: 'message', role: 'assistant', text }];
}

export function imageGenerationHistory(): BuiltinTool {
  return {
    name: 'image_generation',
    // The tool entry stays the protocol's 400: only its items are taken back.
    toolTypes: [],
    itemTypes: ['image_generation_call'],
    schemas: { items: [ImageGenerationCallInput] },
    accept: (item) => {
      const call = ImageGenerationCallInput.parse(item);
      return { ...call, id: call.id ?? newId('ig') } as unknown as StoredItem;
    },
    view,
    // Never called: no request entry enables it.
    session: () => ({ functions: () => [], begin: () => null }),
  };
}
