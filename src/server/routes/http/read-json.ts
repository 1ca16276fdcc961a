/**
 * Reads a JSON request body, with OpenAI's errors for the wrong content type, a body over
 * the size limit (413), bytes that are not text in the declared charset, or malformed JSON.
 * Bytes are decoded strictly: a body is never silently mangled into something else.
 */
import { bodyTooLarge, MAX_BODY_BYTES } from '../../../protocol/request-limits';
import { validationError } from '../../../protocol/validation-error';
import { invalidRequest } from '../../../shared/api-error';
import { Codes } from '../../../shared/error-codes';
import { readRequestBody } from '../../../shared/read-request-body';

/** The encodings JSON may arrive in (RFC 8259 §8.1 names UTF-8; UTF-16 is what some clients still send). */
const CHARSETS = new Set(['utf-8', 'utf-16le', 'utf-16be']);

export async function readJsonBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const encoding = jsonEncoding(request);
  const declaredLength = Number(request.headers.get('content-length'));
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes) throw bodyTooLarge(maxBytes);
  return parseJson(await readBodyBytes(request, maxBytes), encoding);
}

/**
 * {@link readJsonBody} for a route where the body may be left out: undefined when there is
 * none (no bytes at all), whatever the headers say. Where requests have no body stream
 * (Firefox) only reading tells, so there an oversized body is a 413 before its
 * Content-Type is looked at; elsewhere the checks run in readJsonBody's order.
 */
export async function readOptionalJsonBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  if (request.headers.get('content-length') === '0' || request.body === null) return undefined;
  if (request.body !== undefined) return readJsonBody(request, maxBytes);
  const bytes = await readBodyBytes(request, maxBytes);
  if (bytes.byteLength === 0) return undefined;
  return parseJson(bytes, jsonEncoding(request));
}

/** The encoding of a JSON body, from its Content-Type (OpenAI's 400 for another type or charset). */
function jsonEncoding(request: Request): string {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type.trim()))
    throw invalidRequest(
      `Invalid Content-Type header (${type || 'none'}): send the request body as JSON with 'Content-Type: application/json'.`,
      null,
      Codes.invalidContentType,
    );
  return declaredEncoding(type);
}

function parseJson(bytes: Uint8Array, encoding: string): unknown {
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

/**
 * The whole body, but never more than `maxBytes` of it in memory: past that the read stops
 * with a 413. In every browser, Firefox's body-streamless requests included (see readRequestBody).
 */
export async function readBodyBytes(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Uint8Array> {
  const bytes = await readRequestBody(request, maxBytes);
  if (bytes === null) throw bodyTooLarge(maxBytes);
  return bytes;
}

/** A JSON object body parsed with `schema`, or OpenAI's 400. An empty body counts as `{}`. */
export async function readBody<T>(request: Request, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: import('zod').ZodError } }, emptyOk: boolean): Promise<T> {
  const sent = emptyOk ? await readOptionalJsonBody(request) : await readJsonBody(request);
  const body = sent === undefined ? {} : sent;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('The request body must be a JSON object.', null, Codes.invalidType);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error, body);
  return parsed.data;
}
