/**
 * Reads a `multipart/form-data` body (an upload) without holding it in memory: the body is
 * taken as a Blob (the transport hands a large upload over as one, and in the browser a
 * Blob's bytes stay in the browser's blob storage, not in this worker's heap), scanned once,
 * chunk by chunk, for its boundaries, and each file part is answered as a *slice* of that
 * Blob — which IndexedDB then stores without it ever being read into JavaScript.
 *
 * Why not `Request.formData()`: it parses the whole body into memory, so a 500 MB upload
 * would sit in the runtime worker twice.
 */
import { invalidRequest } from '../../../shared/api-error';
import { Codes } from '../../../shared/error-codes';

export interface MultipartFile {
  filename: string;
  contentType: string;
  /** The part's bytes: a slice of the body, not a copy. */
  blob: Blob;
}

export interface MultipartForm {
  fields: Map<string, string>;
  files: Map<string, MultipartFile>;
}

export interface MultipartLimits {
  /** Most parts a body may have. */
  maxParts: number;
  /** Longest text field, in bytes. */
  maxFieldBytes: number;
}

const DEFAULT_LIMITS: MultipartLimits = { maxParts: 32, maxFieldBytes: 64 * 1024 };
/** A part's headers must end within this many bytes of its start. */
const MAX_HEADER_BYTES = 16 * 1024;
const CR = 13;

function malformed(why: string): never {
  throw invalidRequest(`The multipart body could not be read: ${why}. Send the upload as multipart/form-data, as the openai SDK does.`, null, Codes.invalidValue);
}

/** The boundary of a `multipart/form-data` content type, or null when the type is something else. */
export function multipartBoundary(contentType: string): string | null {
  if (!/^multipart\/form-data\b/i.test(contentType.trim())) return null;
  const match = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary || boundary.length > 200) malformed('its Content-Type names no usable boundary');
  return boundary;
}

/**
 * Where every delimiter line (`--boundary` at the start or after CRLF) begins in `body`:
 * offsets of the `-` (the preceding CRLF belongs to the part before). One pass over the
 * body's stream; only the last few bytes of a chunk are kept across chunks.
 */
export async function delimiterOffsets(body: Blob, boundary: string, maxParts: number): Promise<number[]> {
  const marker = new TextEncoder().encode(`\r\n--${boundary}`);
  const offsets: number[] = [];
  const head = new Uint8Array(await body.slice(0, marker.length - 2).arrayBuffer());
  if (head.length === marker.length - 2 && head.every((b, i) => b === marker[i + 2])) offsets.push(0);
  const reader = body.stream().getReader();
  let carry = new Uint8Array(0);
  let carryStart = 0;
  for (let position = 0; ; ) {
    const { done, value } = await reader.read();
    if (done) break;
    // The window: the end of the previous chunk (a marker may straddle the two) and this one.
    const window = carry.length ? concat(carry, value) : value;
    const windowStart = carry.length ? carryStart : position;
    for (let at = window.indexOf(CR); at !== -1 && at + marker.length <= window.length; at = window.indexOf(CR, at + 1)) {
      if (matchesAt(window, at, marker)) {
        offsets.push(windowStart + at + 2);
        if (offsets.length > maxParts + 1) {
          await reader.cancel().catch(() => undefined);
          malformed(`it has more than ${maxParts} parts`);
        }
      }
    }
    position += value.length;
    const keep = Math.min(marker.length - 1, window.length);
    carry = window.slice(window.length - keep);
    carryStart = windowStart + window.length - keep;
  }
  return offsets;
}

function matchesAt(bytes: Uint8Array, at: number, marker: Uint8Array): boolean {
  for (let i = 0; i < marker.length; i++) if (bytes[at + i] !== marker[i]) return false;
  return true;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Reads the body of `request` as a multipart form; file parts are slices of it. */
export async function readMultipart(request: Request, limits: MultipartLimits = DEFAULT_LIMITS): Promise<MultipartForm> {
  const boundary = multipartBoundary(request.headers.get('content-type') ?? '');
  if (boundary === null)
    throw invalidRequest(
      `Invalid Content-Type header (${request.headers.get('content-type') || 'none'}): upload files as multipart/form-data.`,
      null,
      Codes.invalidContentType,
    );
  const body = await request.blob();
  return parseMultipart(body, boundary, limits);
}

export async function parseMultipart(body: Blob, boundary: string, limits: MultipartLimits = DEFAULT_LIMITS): Promise<MultipartForm> {
  const offsets = await delimiterOffsets(body, boundary, limits.maxParts);
  if (offsets.length < 2) malformed('it has no complete part');
  const delimiterLength = 2 + boundary.length;
  const form: MultipartForm = { fields: new Map(), files: new Map() };
  for (let i = 0; i + 1 < offsets.length; i++) {
    // After the delimiter: CRLF (or `--` on the closing one, which no part follows).
    const start = offsets[i]! + delimiterLength;
    const end = offsets[i + 1]! - 2; // the CRLF before the next delimiter is not the part's
    const lead = await body.slice(start, start + 2).text();
    if (lead === '--') break;
    if (lead !== '\r\n') malformed('a boundary line does not end with CRLF');
    const headerEnd = await findHeaderEnd(body, start + 2, Math.min(end, start + 2 + MAX_HEADER_BYTES));
    const headers = parseHeaders(await body.slice(start + 2, headerEnd).text());
    const dataStart = headerEnd + 4;
    if (dataStart > end) malformed('a part ends inside its headers');
    const disposition = headers.get('content-disposition') ?? '';
    const name = dispositionParam(disposition, 'name');
    if (name === null) malformed('a part has no name');
    const filename = dispositionParam(disposition, 'filename');
    if (filename !== null) {
      form.files.set(name, { filename, contentType: headers.get('content-type') ?? 'application/octet-stream', blob: body.slice(dataStart, end, headers.get('content-type') ?? '') });
    } else {
      if (end - dataStart > limits.maxFieldBytes) malformed(`the field '${name.slice(0, 64)}' is longer than ${limits.maxFieldBytes} bytes`);
      const bytes = new Uint8Array(await body.slice(dataStart, end).arrayBuffer());
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        malformed(`the field '${name.slice(0, 64)}' is not UTF-8 text`);
      }
      form.fields.set(name, text);
    }
  }
  return form;
}

/** Offset of the CRLFCRLF that ends the headers starting at `from` (searched up to `limit`). */
async function findHeaderEnd(body: Blob, from: number, limit: number): Promise<number> {
  const bytes = new Uint8Array(await body.slice(from, limit + 4).arrayBuffer());
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === CR && bytes[i + 1] === 10 && bytes[i + 2] === CR && bytes[i + 3] === 10) return from + i;
  }
  return malformed('a part has no end of headers');
}

function parseHeaders(text: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * A parameter of a Content-Disposition header: `name="…"` (quoted, with `\"` escapes; browsers
 * write `"` and newlines in names as `%22`/`%0A`) or the RFC 5987 form `filename*=UTF-8''…`, which wins.
 */
export function dispositionParam(header: string, param: string): string | null {
  const extended = new RegExp(`;\\s*${param}\\*\\s*=\\s*([^']*)'[^']*'([^;\\s]+)`, 'i').exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[2]!);
    } catch {
      // not percent-encoded UTF-8: the plain parameter below, if any
    }
  }
  const quoted = new RegExp(`;\\s*${param}\\s*=\\s*"((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, '$1').replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
  const bare = new RegExp(`;\\s*${param}\\s*=\\s*([^;\\s"]+)`, 'i').exec(header);
  return bare ? bare[1]! : null;
}
