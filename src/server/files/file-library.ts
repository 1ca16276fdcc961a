/**
 * Uploaded files: their objects (`file`), expiry, and their text — extracted once, by the
 * extractor (outside the runtime's context), and kept, so a file in several vector stores or
 * sent again as `input_file` is read once.
 */
import type { FileStore, StoredFile } from '../../ports/file-store';
import type { Extraction, TextExtractor } from '../../ports/text-extractor';
import type { FileObject } from '../../protocol/files';
import { notFound } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';

export function fileObject(file: StoredFile): FileObject {
  return {
    id: file.id,
    object: 'file',
    bytes: file.bytes,
    created_at: file.created_at,
    filename: file.filename,
    purpose: file.purpose,
    status: 'processed',
    status_details: null,
    expires_at: file.expires_at,
  };
}

export function fileNotFound(id: string, param: string | null = null): never {
  throw notFound(`No such File object: ${id}`, param, Codes.fileNotFound);
}

export class FileLibrary {
  constructor(
    private readonly store: FileStore,
    private readonly extractor: TextExtractor,
    private readonly now: () => number,
  ) {}

  /** The file, unless it does not exist or has expired (then it is deleted now). */
  async get(id: string): Promise<StoredFile | undefined> {
    const file = await this.store.getFile(id);
    if (file && file.expires_at !== null && file.expires_at <= this.now()) {
      await this.store.deleteFile(id).catch(() => undefined);
      return undefined;
    }
    return file;
  }

  async require(id: string, param: string | null = null): Promise<StoredFile> {
    return (await this.get(id)) ?? fileNotFound(id, param);
  }

  /** Every file that has not expired, oldest first. */
  async list(): Promise<StoredFile[]> {
    const now = this.now();
    return (await this.store.listFiles()).filter((f) => f.expires_at === null || f.expires_at > now);
  }

  /** The file's text: kept from an earlier read, else extracted now (and kept when it could be read). */
  async textOf(file: StoredFile, signal: AbortSignal): Promise<Extraction> {
    const kept = await this.store.getText(file.id);
    if (kept !== undefined) return { ok: true, text: kept, truncated: false };
    const blob = await this.store.fileBlob(file.id);
    if (!blob) return { ok: false, code: 'server_error', message: `The bytes of ${file.id} are missing from storage; upload the file again.` };
    const result = await this.extractor.extract(blob, { filename: file.filename, contentType: file.content_type, signal });
    if (result.ok) await this.store.putText(file.id, result.text).catch((err: unknown) => console.warn(`Could not keep the text of ${file.id}:`, err));
    return result;
  }

  /** The text of inline bytes (`input_file` with `file_data`), kept under their hash. */
  async textOfBytes(bytes: Uint8Array<ArrayBuffer>, filename: string, contentType: string, signal: AbortSignal): Promise<Extraction> {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    const key = `sha256:${[...digest].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
    const kept = await this.store.getText(key);
    if (kept !== undefined) return { ok: true, text: kept, truncated: false };
    const result = await this.extractor.extract(new Blob([bytes], { type: contentType }), { filename, contentType, signal });
    if (result.ok) await this.store.putText(key, result.text).catch(() => undefined);
    return result;
  }
}
