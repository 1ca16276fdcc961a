import type { TransportErrorData } from './wire';
import { Codes, type ErrorCode } from '../shared/error-codes';
import { errorResponse } from '../protocol/error-response';
import { bodyTooLarge, MAX_BODY_BYTES } from '../protocol/request-limits';
import { MAX_FILE_BYTES, MULTIPART_OVERHEAD_BYTES } from '../protocol/files';
import { fileTooLarge } from '../protocol/upload-limits';

/**
 * Responses for failures of the transport itself (no runtime, runtime crashed, runtime
 * failed to start). Everything the server answers is shaped by the server; these are the
 * only errors the HTTP edge makes up, in OpenAI's error shape so SDKs surface them.
 */
export function transportError(code: ErrorCode, message: string): TransportErrorData {
  return { type: 'server_error', code, message, param: null };
}

export function transportErrorResponse(status: number, error: TransportErrorData): Response {
  return new Response(JSON.stringify({ error }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** 503 telling the user what to do: open the app so a tab starts the runtime. */
export function runtimeUnavailable(appUrl: string, why = 'No local runtime is running.'): Response {
  return transportErrorResponse(
    503,
    transportError(Codes.runtimeUnavailable, `${why} Open the app (${appUrl}) in a tab to start it.`),
  );
}

/** The body limit of the server (protocol/request-limits.ts), enforced where a body first arrives. */
export { MAX_BODY_BYTES };

/** 413 for a body over the limit, the same answer the server gives. */
export function bodyTooLargeResponse(): Response {
  return errorResponse(bodyTooLarge());
}

/** The largest upload body: the file limit (protocol/files.ts) and the multipart framing around it. */
export const MAX_UPLOAD_BODY_BYTES = MAX_FILE_BYTES + MULTIPART_OVERHEAD_BYTES;

/** 413 for an upload over the file limit, the same answer the server gives. */
export function uploadTooLargeResponse(): Response {
  return errorResponse(fileTooLarge());
}
