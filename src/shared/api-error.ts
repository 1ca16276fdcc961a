/**
 * Errors as data. Anything that should reach a client as an OpenAI error is an ApiError;
 * it crosses threads as its plain `data` and is turned into HTTP in exactly one place
 * (`protocol/error-response.ts`). Codes come from the one catalogue, `error-codes.ts`.
 */
import { Codes, type ErrorCode } from './error-codes';

export type ApiErrorType = 'invalid_request_error' | 'not_found_error' | 'server_error' | 'rate_limit_error';

export interface ApiErrorData {
  status: number;
  type: ApiErrorType;
  code: ErrorCode | null;
  param: string | null;
  message: string;
}

export class ApiError extends Error {
  readonly data: ApiErrorData;
  /** `cause`: the error this one was made from (kept for logs; never sent to clients). */
  constructor(data: ApiErrorData, options?: { cause?: unknown }) {
    super(data.message, options);
    this.name = 'ApiError';
    this.data = data;
  }
}

export function invalidRequest(message: string, param: string | null = null, code: ErrorCode | null = null): ApiError {
  return new ApiError({ status: 400, type: 'invalid_request_error', code, param, message });
}

export function notFound(message: string, param: string | null = null, code: ErrorCode | null = null): ApiError {
  return new ApiError({ status: 404, type: 'invalid_request_error', code, param, message });
}

export function serverError(message: string, code: ErrorCode | null = Codes.serverError, cause?: unknown): ApiError {
  return new ApiError({ status: 500, type: 'server_error', code, param: null, message }, { cause });
}

/**
 * What a thrown value says, for a person: its message, or its name when the message is
 * empty (a `QuotaExceededError` from IndexedDB may come with no message at all).
 */
export function describeError(err: unknown): string {
  if (err instanceof Error || (typeof err === 'object' && err !== null && 'name' in err)) {
    const { name, message } = err as { name?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message.trim() : '';
    const label = typeof name === 'string' && name !== 'Error' ? name : '';
    if (text && label && !text.startsWith(label)) return `${label}: ${text}`;
    return text || label || 'unknown error';
  }
  return String(err);
}

/** Any thrown value as ApiErrorData; unknown errors become a 500 that still says what happened. */
export function toApiErrorData(err: unknown): ApiErrorData {
  if (err instanceof ApiError) return err.data;
  return { status: 500, type: 'server_error', code: Codes.serverError, param: null, message: `The local runtime failed: ${describeError(err)}` };
}
