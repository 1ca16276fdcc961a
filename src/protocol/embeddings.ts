/** `POST /v1/embeddings`, as OpenAI's (`openai/resources/embeddings`): the request, bounded, and the answer. */
import { z } from 'zod';

/** OpenAI's limits: 2,048 inputs a request, none empty. */
export const MAX_EMBEDDING_INPUTS = 2048;

const Text = z.string().min(1, { message: 'an input may not be an empty string.' });
const Tokens = z.array(z.number().int().min(0)).min(1);

export const EmbeddingRequest = z.strictObject({
  model: z.string().min(1),
  input: z.union([Text, z.array(Text).min(1).max(MAX_EMBEDDING_INPUTS), Tokens, z.array(Tokens).min(1).max(MAX_EMBEDDING_INPUTS)]),
  dimensions: z.number().int().min(1).optional(),
  encoding_format: z.enum(['float', 'base64']).optional(),
  user: z.string().max(512).optional(),
});
export type EmbeddingRequest = z.infer<typeof EmbeddingRequest>;

export interface EmbeddingResponse {
  object: 'list';
  data: Array<{ object: 'embedding'; index: number; embedding: number[] | string }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}
