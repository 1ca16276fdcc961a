/**
 * `input_file` parts as the model sees them: each replaced by the file's text (extracted once,
 * outside the runtime's context, and kept — by file id, or by the hash of inline `file_data`),
 * in a copy of the items for the model; storage keeps the parts as sent. A file of this
 * request that cannot be used is a 400 (404 for an unknown id) naming the part; one of an
 * earlier turn that is gone since is shown as a note.
 */
import type { InputFile, StoredItem } from '../../protocol/output-items';
import { invalidRequest, notFound } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import type { FilesState } from '../files/files-state';

const hasFile = (item: StoredItem) => item.type === 'message' && item.role !== 'assistant' && item.content.some((c) => c.type === 'input_file');

/** Whether any message of `items` carries a file. */
export function carriesFiles(items: readonly StoredItem[]): boolean {
  return items.some(hasFile);
}

/**
 * `window` (history, then the request's `inputCount` new items) with every `input_file` part
 * replaced by an `input_text` of the file's text.
 */
export async function withFileTexts(files: FilesState | undefined, window: readonly StoredItem[], inputCount: number, signal: AbortSignal): Promise<StoredItem[]> {
  if (!carriesFiles(window)) return [...window];
  const inputStart = window.length - inputCount;
  const out: StoredItem[] = [];
  for (const [k, item] of window.entries()) {
    if (item.type !== 'message' || item.role === 'assistant' || !hasFile(item)) {
      out.push(item);
      continue;
    }
    const content = [];
    for (const [j, part] of item.content.entries()) {
      if (part.type !== 'input_file') content.push(part);
      else content.push({ type: 'input_text' as const, text: await fileText(files, part, k >= inputStart ? `input[${k - inputStart}].content[${j}]` : null, signal) });
    }
    out.push({ ...item, content });
  }
  return out;
}

/** The file's text, framed with its name; `param` is set for a part of this request (then problems are errors). */
async function fileText(files: FilesState | undefined, part: InputFile, param: string | null, signal: AbortSignal): Promise<string> {
  const gone = (why: string) => {
    if (param === null) return `[A file of an earlier message (${part.filename ?? part.file_id ?? 'unnamed'}) is not available: ${why}]`;
    return null;
  };
  if (!files) {
    const note = gone('this runtime has no file store');
    if (note) return note;
    throw invalidRequest('Files are not available in this runtime (it has no file store).', param, Codes.unsupportedParameter);
  }
  let name: string;
  let extraction;
  if (part.file_id !== null) {
    const file = await files.library.get(part.file_id);
    if (!file) {
      const note = gone('it was deleted');
      if (note) return note;
      throw notFound(`No such File object: ${part.file_id}`, `${param}.file_id`, Codes.fileNotFound);
    }
    name = file.filename;
    extraction = await files.library.textOf(file, signal);
  } else {
    name = part.filename ?? 'file';
    const decoded = decodeFileData(part.file_data ?? '');
    if (!decoded) {
      const note = gone('its file_data is not readable');
      if (note) return note;
      throw invalidRequest("Invalid 'file_data': send a data URL (data:application/pdf;base64,…) or base64.", `${param}.file_data`, Codes.invalidValue);
    }
    extraction = await files.library.textOfBytes(decoded.bytes, name, decoded.type, signal);
  }
  if (!extraction.ok) {
    const note = gone(extraction.message);
    if (note) return note;
    throw invalidRequest(`The file ${JSON.stringify(name.slice(0, 200))} could not be read: ${extraction.message}`, param, Codes.invalidValue);
  }
  return `[File: ${name}]\n${extraction.text}\n[End of file: ${name}]`;
}

/** The bytes of `file_data`: a data URL (base64 or percent-encoded) or plain base64; null when neither. */
export function decodeFileData(data: string): { bytes: Uint8Array<ArrayBuffer>; type: string } | null {
  const url = /^data:([^;,]*)((?:;[^;,]*)*?)(;base64)?,(.*)$/s.exec(data);
  try {
    if (url) {
      const type = url[1] || 'application/octet-stream';
      if (url[3]) return { bytes: fromBase64(url[4]!), type };
      return { bytes: new TextEncoder().encode(decodeURIComponent(url[4]!)), type };
    }
    return { bytes: fromBase64(data), type: 'application/octet-stream' };
  } catch {
    return null;
  }
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
