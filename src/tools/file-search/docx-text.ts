/**
 * The text of a Word document (.docx), read by mammoth. A .docx is a zip, and a zip can be a
 * bomb: a few kilobytes that inflate to gigabytes (mammoth's JSZip inflates whatever an entry
 * holds before it checks anything). So the archive is checked first, with fflate: its
 * directory's declared sizes, then the real sizes, inflated as a stream and stopped as soon
 * as they pass the limit (declared sizes can lie). Only an archive within the limits reaches
 * mammoth.
 */
import { Unzip, UnzipInflate, unzipSync } from 'fflate';

/** What the archive may hold once inflated, in all: far more than any real document's text and styles. */
export const MAX_DOCX_INFLATED_BYTES = 64 * 1024 * 1024;
const MAX_DOCX_ENTRIES = 2000;

export interface DocxReader {
  extractRawText(input: { arrayBuffer: ArrayBuffer; buffer?: unknown }): Promise<{ value: string }>;
}

export type DocxResult = { ok: true; text: string; truncated: boolean } | { ok: false; message: string };

/** Why the archive cannot be read safely, or null when it is within the limits. */
export function zipBombCheck(bytes: Uint8Array, maxInflated = MAX_DOCX_INFLATED_BYTES): string | null {
  let entries = 0;
  let declared = 0;
  try {
    // The central directory only: `filter` sees each entry's declared sizes, and refusing them all inflates nothing.
    unzipSync(bytes, {
      filter: (file) => {
        entries++;
        declared += file.originalSize;
        return false;
      },
    });
  } catch (err) {
    return `The file is not a valid .docx (zip) archive (${err instanceof Error ? err.message : String(err)}).`;
  }
  const tooBig = `The .docx inflates to more than ${maxInflated / (1024 * 1024)} MB; it is refused as a possible zip bomb.`;
  if (entries > MAX_DOCX_ENTRIES) return `The .docx has more than ${MAX_DOCX_ENTRIES} parts; it is refused as a possible zip bomb.`;
  if (declared > maxInflated) return tooBig;
  let inflated = 0;
  let over = false;
  let broken: string | null = null;
  const unzip = new Unzip((file) => {
    if (over || broken) return; // not started: skipped, nothing more inflated
    file.ondata = (err, chunk) => {
      if (over || broken) return;
      if (err) {
        broken = err.message;
        return;
      }
      inflated += chunk.length;
      if (inflated > maxInflated) {
        over = true;
        file.terminate();
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    unzip.push(bytes, true);
  } catch (err) {
    if (!over) return `The file is not a valid .docx (zip) archive (${err instanceof Error ? err.message : String(err)}).`;
  }
  if (over) return tooBig;
  if (broken) return `The file is not a valid .docx (zip) archive (${broken}).`;
  return null;
}

export async function docxText(bytes: Uint8Array, mammoth: DocxReader, limits: { maxChars: number }): Promise<DocxResult> {
  const bomb = zipBombCheck(bytes);
  if (bomb) return { ok: false, message: bomb };
  const copy = bytes.slice().buffer;
  try {
    // `arrayBuffer` is what mammoth's browser build reads, `buffer` its Node build.
    const { value } = await mammoth.extractRawText({ arrayBuffer: copy, buffer: new Uint8Array(copy) });
    const text = value.replace(/\n{3,}/g, '\n\n').trim();
    return { ok: true, text: text.slice(0, limits.maxChars), truncated: text.length > limits.maxChars };
  } catch (err) {
    return { ok: false, message: `The file is not a .docx mammoth can read (${(err instanceof Error ? err.message : String(err)).slice(0, 200)}).` };
  }
}
