/**
 * Size and shape limits of a request, checked before zod sees the body. They exist so that
 * whatever passes validation can be stored and read back: a value nested a thousand levels
 * deep parses fine, but structured clone (IndexedDB), JSON.stringify and recursive schemas
 * overflow the stack on it — so the depth is measured here iteratively, never recursively.
 * The numbers are documented in docs/api.md ("Limits").
 */
import { ApiError, invalidRequest } from '../shared/api-error';
import { Codes } from '../shared/error-codes';
import { paramPath } from './validation-error';

/** Largest request body, in bytes (before decoding). OpenAI allows 50 MB of image bytes; here the body, its stored copy and the prompt share one tab's memory. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Deepest nesting of objects and arrays in a body; the body itself is level 1. */
export const MAX_JSON_DEPTH = 64;
/** OpenAI's documented maximum number of tools per request. */
export const MAX_TOOLS = 128;

/** Free-form JSON a client nests on purpose: a too-deep value there is named by this prefix. */
const FREE_FORM: ReadonlyArray<(path: ReadonlyArray<PropertyKey>) => number> = [
  (p) => (p[0] === 'text' && p[1] === 'format' && p[2] === 'schema' ? 3 : 0),
  (p) => (p[0] === 'tools' && typeof p[1] === 'number' && p[2] === 'parameters' ? 3 : 0),
];

/** The parameter to name for a too-deep value at `path`: a free-form root, else the top-level field (and index). */
function nestingParam(path: ReadonlyArray<PropertyKey>): string {
  for (const prefix of FREE_FORM) {
    const n = prefix(path);
    if (n) return paramPath(path.slice(0, n));
  }
  return paramPath(path.slice(0, typeof path[1] === 'number' ? 2 : 1));
}

/** One open container on the walk: its key in the parent and the next child to visit. */
interface Level {
  key: PropertyKey;
  value: Record<PropertyKey, unknown>;
  /** Own keys of an object; null for an array (visited by index). */
  keys: string[] | null;
  size: number;
  next: number;
}

function open(value: object, key: PropertyKey): Level {
  const keys = Array.isArray(value) ? null : Object.keys(value);
  return { key, value: value as Record<PropertyKey, unknown>, keys, size: keys ? keys.length : (value as unknown[]).length, next: 0 };
}

/**
 * The 400 for a parsed JSON body nested deeper than {@link MAX_JSON_DEPTH}, or null.
 * Iterative, and the stack holds only the containers on the current path (never more than
 * `maxDepth`), so a 100,000-deep or 5-million-array body costs neither call stack nor memory.
 */
export function nestingError(body: unknown, maxDepth = MAX_JSON_DEPTH): ApiError | null {
  if (body === null || typeof body !== 'object') return null;
  const stack: Level[] = [open(body, '')];
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    if (top.next >= top.size) {
      stack.pop();
      continue;
    }
    const key = top.keys ? top.keys[top.next]! : top.next;
    top.next++;
    const child = top.value[key];
    if (child === null || typeof child !== 'object') continue;
    if (stack.length >= maxDepth) {
      const param = nestingParam([...stack.slice(1).map((level) => level.key), key]);
      return invalidRequest(
        `Invalid '${param}': nested too deeply. Objects and arrays in a request may nest at most ${maxDepth} levels (the body is level 1); flatten the value or use '$defs' and '$ref' in a JSON schema.`,
        param,
        Codes.nestingAboveMaxDepth,
      );
    }
    stack.push(open(child, key));
  }
  return null;
}

/** The 413 for a body over {@link MAX_BODY_BYTES}. */
export function bodyTooLarge(limit = MAX_BODY_BYTES): ApiError {
  return new ApiError({
    status: 413,
    type: 'invalid_request_error',
    code: Codes.requestTooLarge,
    param: null,
    message: `The request body is too large: at most ${limit} bytes (${limit / (1024 * 1024)} MiB) are accepted. Send a shorter input, or fewer or smaller images.`,
  });
}
