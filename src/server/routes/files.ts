/**
 * The Files API, as OpenAI's: `POST /v1/files` (multipart: `file`, `purpose`,
 * `expires_after[anchor]`, `expires_after[seconds]`), `GET /v1/files` (cursor page, `purpose`,
 * `order`), `GET`/`DELETE /v1/files/{id}` and `GET /v1/files/{id}/content` (the bytes, as
 * stored). The upload's file part is written to IndexedDB as a slice of the request's Blob:
 * never read into memory here.
 */
import type { StoredFile } from '../../ports/file-store';
import { FileExpiresAfter, FilePurpose, MAX_FILENAME_CHARS } from '../../protocol/files';
import { fileTooLarge } from '../../protocol/upload-limits';
import { invalidRequest, serverError } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import { newId } from '../../shared/ids';
import { fileObject } from '../files/file-library';
import { filesOf } from '../files/files-state';
import { deleteFile, refuseWhenFull } from '../files/vector-store-ops';
import type { ServerState } from '../state/server-state';
import { idPage, idPageQuery } from './http/id-page';
import { readMultipart } from './http/read-multipart';

export async function createFile(state: ServerState, request: Request): Promise<Response> {
  const files = filesOf(state);
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > files.maxFileBytes + 64 * 1024) throw fileTooLarge(files.maxFileBytes);
  const form = await readMultipart(request);
  const part = form.files.get('file');
  if (!part) throw invalidRequest("Missing required parameter: 'file'.", 'file', Codes.missingRequiredParameter);
  const purposeText = form.fields.get('purpose');
  if (purposeText === undefined) throw invalidRequest("Missing required parameter: 'purpose'.", 'purpose', Codes.missingRequiredParameter);
  const purpose = FilePurpose.safeParse(purposeText);
  if (!purpose.success)
    throw invalidRequest(`Invalid value for 'purpose': '${purposeText.slice(0, 64)}'. Supported values are: ${FilePurpose.options.map((p) => `'${p}'`).join(', ')}.`, 'purpose', Codes.invalidValue);
  const expiresAfter = readExpiresAfter(form.fields);
  const unknown = [...form.fields.keys(), ...form.files.keys()].find((k) => !['file', 'purpose', 'expires_after[anchor]', 'expires_after[seconds]'].includes(k));
  if (unknown !== undefined) throw invalidRequest(`Unrecognized request argument supplied: ${unknown.slice(0, 64)}`, unknown.slice(0, 64), Codes.unknownParameter);
  if (part.blob.size > files.maxFileBytes) throw fileTooLarge(files.maxFileBytes);
  const filename = part.filename.split(/[\\/]/).pop() ?? '';
  if (filename === '' || filename.length > MAX_FILENAME_CHARS)
    throw invalidRequest(`The file needs a name of 1 to ${MAX_FILENAME_CHARS} characters.`, 'file', Codes.invalidValue);
  const now = files.now();
  const file: StoredFile = {
    id: newId('file'),
    filename,
    bytes: part.blob.size,
    created_at: now,
    purpose: purpose.data,
    expires_at: expiresAfter === null ? null : now + expiresAfter,
    content_type: part.contentType,
    stored_at: performance.timeOrigin + performance.now(),
  };
  await refuseWhenFull(() => files.store.putFile(file, part.blob));
  return Response.json(fileObject(file));
}

function readExpiresAfter(fields: Map<string, string>): number | null {
  const anchor = fields.get('expires_after[anchor]');
  const seconds = fields.get('expires_after[seconds]');
  if (anchor === undefined && seconds === undefined) return null;
  const parsed = FileExpiresAfter.safeParse({ anchor, seconds: seconds === undefined ? undefined : Number(seconds) });
  if (!parsed.success)
    throw invalidRequest("Invalid 'expires_after': give anchor 'created_at' and seconds between 3600 (one hour) and 2592000 (30 days).", 'expires_after', Codes.invalidValue);
  return parsed.data.seconds;
}

export async function listFiles(state: ServerState, url: URL): Promise<Response> {
  const files = filesOf(state);
  const query = idPageQuery(url, 10_000);
  const purpose = url.searchParams.get('purpose');
  const all = (await files.library.list()).filter((f) => purpose === null || f.purpose === purpose);
  return Response.json(idPage(all.map(fileObject), (f) => f.id, query, 'file'));
}

export async function retrieveFile(state: ServerState, id: string): Promise<Response> {
  return Response.json(fileObject(await filesOf(state).library.require(id)));
}

export async function deleteFileRoute(state: ServerState, id: string): Promise<Response> {
  const files = filesOf(state);
  await files.library.require(id);
  await deleteFile(files, id);
  return Response.json({ id, object: 'file', deleted: true });
}

/** The bytes as uploaded, streamed from storage; never shown as a page (`attachment`, and the type is not trusted). */
export async function fileContent(state: ServerState, id: string): Promise<Response> {
  const files = filesOf(state);
  const file = await files.library.require(id);
  const blob = await files.store.fileBlob(id);
  if (!blob) throw serverError(`The bytes of ${id} are missing from storage; upload the file again.`);
  return new Response(blob, {
    headers: {
      'content-type': 'application/octet-stream',
      'content-length': String(blob.size),
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      'x-content-type-options': 'nosniff',
    },
  });
}
