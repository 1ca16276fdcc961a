/**
 * The size limits of a file upload, and the 413 for one over them, answered by the server and
 * the HTTP edge alike. Apart from the Files API's schemas (files.ts): the page-side edge reads
 * these, and must not carry zod (the page entry's size budget).
 */
import { ApiError } from '../shared/api-error';
import { Codes } from '../shared/error-codes';

/**
 * The largest file an upload may carry: 512 MB, OpenAI's own limit. The body goes from the
 * page to IndexedDB as a Blob (never whole in the runtime's memory), so the limit is the
 * disk's, not the tab's.
 */
export const MAX_FILE_BYTES = 512 * 1000 * 1000;
/** Room for the multipart framing and the small fields around the file part. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export function fileTooLarge(limit = MAX_FILE_BYTES): ApiError {
  return new ApiError({
    status: 413,
    type: 'invalid_request_error',
    code: Codes.fileTooLarge,
    param: 'file',
    message: `The file is too large: files of at most ${limit} bytes (${Math.round(limit / 1e6)} MB) can be uploaded. Split it into smaller files.`,
  });
}
