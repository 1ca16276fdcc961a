/** The 413 for an upload over the file limit (protocol/files.ts), answered by the server and the HTTP edge alike. */
import { ApiError } from '../shared/api-error';
import { Codes } from '../shared/error-codes';
import { MAX_FILE_BYTES } from './files';

export function fileTooLarge(limit = MAX_FILE_BYTES): ApiError {
  return new ApiError({
    status: 413,
    type: 'invalid_request_error',
    code: Codes.fileTooLarge,
    param: 'file',
    message: `The file is too large: files of at most ${limit} bytes (${Math.round(limit / 1e6)} MB) can be uploaded. Split it into smaller files.`,
  });
}
