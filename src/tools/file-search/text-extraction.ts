/**
 * The text of one uploaded file, by its kind (file-kind.ts): UTF-8 text and source code,
 * HTML without its markup, PDF through pdf.js, Word documents through mammoth. The readers
 * are passed in, so the same code runs in the extraction worker (extract-worker.ts) and in
 * Node tests. A file that cannot be read is answered with OpenAI's `last_error` code and a
 * message that says why; nothing here throws for a bad file.
 */
import type { Extraction } from '../../ports/text-extractor';
import { docxText, type DocxReader } from './docx-text';
import { fileKind } from './file-kind';
import { htmlToText } from './html-text';
import { pdfText, type PdfJs } from './pdf-text';

/** The most text one file gives: ~2.5 million tokens (OpenAI allows 5 million a file; a tab's memory is the bound here). */
export const MAX_EXTRACTED_CHARS = 10_000_000;

export interface Readers {
  /** pdf.js, loaded on first use (it is the biggest reader). */
  pdf: () => Promise<PdfJs>;
  docx: () => Promise<DocxReader>;
}

export interface ExtractRequest {
  bytes: Uint8Array;
  filename: string;
  contentType: string;
  maxChars?: number;
}

export async function extractText(request: ExtractRequest, readers: Readers): Promise<Extraction> {
  const { bytes, filename, contentType } = request;
  const maxChars = request.maxChars ?? MAX_EXTRACTED_CHARS;
  if (bytes.length === 0) return { ok: false, code: 'invalid_file', message: `The file ${quoted(filename)} is empty (0 bytes).` };
  const kind = fileKind(filename, contentType, bytes.subarray(0, 8));
  switch (kind) {
    case 'unsupported':
      return {
        ok: false,
        code: 'unsupported_file',
        message: `The file ${quoted(filename)} is of a type file search cannot read. Supported: text and source code (UTF-8), Markdown, HTML, JSON, CSV, PDF and Word (.docx).`,
      };
    case 'text':
    case 'html': {
      const decoded = decodeText(bytes, filename);
      if (!decoded.ok) return decoded;
      const text = kind === 'html' ? htmlToText(decoded.text) : decoded.text;
      return found(text, maxChars, filename);
    }
    case 'pdf': {
      const result = await pdfText(bytes, await readers.pdf(), { maxChars });
      return result.ok ? found(result.text, maxChars, filename, result.truncated) : { ok: false, code: 'invalid_file', message: result.message };
    }
    case 'docx': {
      const result = await docxText(bytes, await readers.docx(), { maxChars });
      return result.ok ? found(result.text, maxChars, filename, result.truncated) : { ok: false, code: 'invalid_file', message: result.message };
    }
  }
}

function quoted(filename: string): string {
  return JSON.stringify(filename.slice(0, 200));
}

/** Strict decoding: UTF-8 (or UTF-16 with a byte-order mark); invalid bytes fail the file, never become U+FFFD. */
function decodeText(bytes: Uint8Array, filename: string): { ok: true; text: string } | { ok: false; code: 'invalid_file'; message: string } {
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  try {
    return { ok: true, text: new TextDecoder(encoding, { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, code: 'invalid_file', message: `The file ${quoted(filename)} is not valid ${encoding.toUpperCase()} text. Save it as UTF-8 and upload it again.` };
  }
}

function found(text: string, maxChars: number, filename: string, truncated = false): Extraction {
  const cut = text.length > maxChars;
  const kept = cut ? text.slice(0, maxChars) : text;
  if (kept.trim() === '') return { ok: false, code: 'invalid_file', message: `No text could be read from ${quoted(filename)} (a scanned PDF has only images of text).` };
  return { ok: true, text: kept, truncated: truncated || cut };
}
