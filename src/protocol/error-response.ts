/**
 * The one place an error becomes HTTP: `{error: {message, type, param, code}}` with the
 * status the error carries.
 */
import * as z from 'zod/mini';
import { toApiErrorData, type ApiErrorData } from '../shared/api-error';

/**
 * OpenAI's error object, the `error` of an error body (and of an `error` stream event).
 * Written with zod's mini build, like `local-status.ts`, because the UI parses it too.
 */
export const ErrorObject = z.object({ message: z.string(), type: z.string(), param: z.nullable(z.string()), code: z.nullable(z.string()) });
export type ErrorObject = z.infer<typeof ErrorObject>;

/** The body of every error answer. */
export const ErrorBody = z.object({ error: ErrorObject });

export function errorBody(data: ApiErrorData): { error: ErrorObject } {
  return { error: { message: data.message, type: data.type, param: data.param, code: data.code } };
}

export function errorResponse(err: unknown): Response {
  const data = toApiErrorData(err);
  return Response.json(errorBody(data), { status: data.status });
}
