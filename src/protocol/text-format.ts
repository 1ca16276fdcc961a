/**
 * `text.format`: plain text, JSON mode, or a JSON schema (Structured Outputs). Its own file so
 * that both the create body and the `configuration_update` item (context-items.ts) use it.
 */
import { z } from 'zod';

/**
 * A JSON object kept exactly as sent. `z.record` would rebuild it, and an own `__proto__`
 * key (which JSON.parse makes) is skipped unchecked and lost on the way: data silently dropped.
 */
function jsonObject() {
  return z.custom<Record<string, unknown>>().superRefine((value, ctx) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) ctx.addIssue({ code: 'invalid_type', expected: 'object', input: value });
  });
}

export const PlainTextFormat = z.strictObject({ type: z.literal('text') });
export const JsonSchemaFormat = z.strictObject({
  type: z.literal('json_schema'),
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, { message: 'Names must match ^[a-zA-Z0-9_-]{1,64}$.' }),
  schema: jsonObject(),
  description: z.string().optional(),
  strict: z.boolean().nullish(),
});

export const TextFormat = z.discriminatedUnion('type', [PlainTextFormat, z.strictObject({ type: z.literal('json_object') }), JsonSchemaFormat]);
export type TextFormat = z.infer<typeof TextFormat>;
