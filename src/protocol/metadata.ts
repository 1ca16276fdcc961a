/** OpenAI's `metadata` (responses, conversations, vector stores): checked pair by pair, kept as sent. */
import { z } from 'zod';

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * OpenAI's metadata: at most 16 pairs, keys up to 64 characters, string values up to 512.
 * Any key is data, `__proto__` and `constructor` included: the object is checked entry by
 * entry and passed on as sent (see {@link jsonObject} for why not `z.record`).
 */
export const Metadata = z.custom<Record<string, string>>().superRefine((value, ctx) => {
  if (!isJsonObject(value)) {
    ctx.addIssue({ code: 'invalid_type', expected: 'object', input: value });
    return;
  }
  const entries = Object.entries(value);
  for (const [key, v] of entries) {
    if (key.length > 64)
      ctx.addIssue({ code: 'custom', input: value, message: `keys may be at most 64 characters long, but '${key.slice(0, 64)}…' has ${key.length}.` });
    else if (typeof v !== 'string') ctx.addIssue({ code: 'invalid_type', expected: 'string', input: v, path: [key] });
    else if (v.length > 512) ctx.addIssue({ code: 'too_big', origin: 'string', maximum: 512, inclusive: true, input: v, path: [key] });
  }
  if (entries.length > 16) ctx.addIssue({ code: 'custom', input: value, message: 'METADATA_KEYS' });
});

