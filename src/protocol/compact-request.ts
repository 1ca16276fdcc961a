/**
 * The `POST /v1/responses/compact` body: the SDK's `ResponseCompactParams`, plus
 * `conversation` (the and the create body's way to name a context). Validated like
 * the create body: strict, the first problem a 400 naming its parameter.
 */
import { z } from 'zod';
import { invalidRequest } from '../shared/api-error';
import { Codes } from '../shared/error-codes';
import { InputItem } from './input-item-schemas';
import { ServiceTier } from './create-request';
import { nestingError } from './request-limits';
import { validationError } from './validation-error';

export const CompactRequest = z.strictObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(InputItem)]).nullish(),
  instructions: z.string().nullish(),
  previous_response_id: z.string().min(1).nullish(),
  conversation: z.union([z.string().min(1), z.strictObject({ id: z.string().min(1) })]).nullish(),
  /** Accepted as on create; the engine keeps its KV cache whatever they say. */
  prompt_cache_key: z.string().max(1024).nullish(),
  prompt_cache_retention: z.enum(['in_memory', '24h']).nullish(),
  prompt_cache_options: z.record(z.string(), z.unknown()).nullish(),
  service_tier: ServiceTier.nullish(),
  image: z
    .unknown()
    .refine((v) => v === undefined || v === null, { message: 'UNSUPPORTED:Image compression options are not supported by the local runtime.' })
    .optional(),
});
export type CompactRequest = z.infer<typeof CompactRequest>;

export function parseCompactRequest(body: unknown): CompactRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('The request body must be a JSON object.', null, Codes.invalidType);
  const tooDeep = nestingError(body);
  if (tooDeep) throw tooDeep;
  const parsed = CompactRequest.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error, body);
  return parsed.data;
}
