/**
 * Reads a JSON request body, with OpenAI's errors for the wrong content type, a body over
 * the size limit (413), bytes that are not text in the declared charset, or malformed JSON.
 * Bytes are decoded strictly: a body is never silently mangled into something else.
 */
import { bodyTooLarge, MAX_BODY_BYTES } from '../../../protocol/request-limits';
import { validationError } from '../../../protocol/validation-error';
import { invalidRequest } from '../../../shared/api-error';
import { Codes } from '../../../shared/error-codes';
import { readCapped } from '../../../shared/read-capped';

/** The encodings JSON may arrive in (RFC 8259 §8.1 names UTF-8; UTF-16 is what some clients still send). */
const CHARSETS = new Set(['utf-8', 'utf-16le', 'utf-16be']);

export async function readJsonBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type.trim()))
    throw invalidRequest(
      `Invalid Content-Type header (${type || 'none'}): send the request body as JSON with 'Content-Type: application/json'.`,
      null,
      Codes.invalidContentType,
    );
  const encoding = declaredEncoding(type);
  const declaredLength = Number(request.headers.get('content-length'));
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes) throw bodyTooLarge(maxBytes);
  const bytes = await readBytes(request, maxBytes);
  let text: string;
  try {
    // A byte-order mark overrides the label, as the Encoding standard's decode does.
    text = new TextDecoder(sniffBom(bytes) ?? encoding, { fatal: true }).decode(bytes);
  } catch {
    throw invalidRequest(
      `We could not parse the JSON body of your request: it is not valid ${encoding.toUpperCase()} text. Send the body as UTF-8.`,
      null,
      Codes.invalidJson,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequest(
      "We could not parse the JSON body of your request. The API expects a JSON payload, but what was sent was not valid JSON.",
      null,
      Codes.invalidJson,
    );
  }
}

/** The encoding `charset=` names (UTF-8 when absent); anything but UTF-8/UTF-16 is refused, not guessed. */
function declaredEncoding(contentType: string): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1];
  if (!charset) return 'utf-8';
  let encoding: string | null = null;
  try {
    encoding = new TextDecoder(charset).encoding;
  } catch {
    // not a charset TextDecoder knows: refused below
  }
  if (encoding && CHARSETS.has(encoding)) return encoding;
  throw invalidRequest(
    `Unsupported charset '${charset}' in the Content-Type header: send JSON as UTF-8 (or UTF-16).`,
    null,
    Codes.invalidContentType,
  );
}

function sniffBom(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

/** The whole body, but never more than `maxBytes` of it in memory: past that the read stops with a 413. */
async function readBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const bytes = await readCapped(request.body, maxBytes);
  if (bytes === null) throw bodyTooLarge(maxBytes);
  return bytes;
}

/** A JSON object body parsed with `schema`, or OpenAI's 400. An empty body counts as `{}`. */
export async function readBody<T>(request: Request, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: import('zod').ZodError } }, emptyOk: boolean): Promise<T> {
  const empty = emptyOk && (request.headers.get('content-length') === '0' || request.body === null);
  const body = empty ? {} : await readJsonBody(request);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('The request body must be a JSON object.', null, Codes.invalidType);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error, body);
  return parsed.data;
}
