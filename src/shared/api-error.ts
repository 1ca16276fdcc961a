/**
 * Errors as data. Anything that should reach a client as an OpenAI error is an ApiError;
 * it crosses threads as its plain `data` and is turned into HTTP in exactly one place
 * (`protocol/error-response.ts`).
 */
export type ApiErrorType = 'invalid_request_error' | 'not_found_error' | 'server_error' | 'rate_limit_error';

export interface ApiErrorData {
  status: number;
  type: ApiErrorType;
  code: string | null;
  param: string | null;
  message: string;
}

export class ApiError extends Error {
  readonly data: ApiErrorData;
  constructor(data: ApiErrorData) {
    super(data.message);
    this.name = 'ApiError';
    this.data = data;
  }
}

export function invalidRequest(message: string, param: string | null = null, code: string | null = null): ApiError {
  return new ApiError({ status: 400, type: 'invalid_request_error', code, param, message });
}

export function notFound(message: string, param: string | null = null, code: string | null = null): ApiError {
  return new ApiError({ status: 404, type: 'invalid_request_error', code, param, message });
}

export function serverError(message: string, code: string | null = 'server_error'): ApiError {
  return new ApiError({ status: 500, type: 'server_error', code, param: null, message });
}

/** Any thrown value as ApiErrorData; unknown errors become a 500 that still says what happened. */
export function toApiErrorData(err: unknown): ApiErrorData {
  if (err instanceof ApiError) return err.data;
  const message = err instanceof Error ? err.message : String(err);
  return { status: 500, type: 'server_error', code: 'server_error', param: null, message: `The local runtime failed: ${message}` };
}
