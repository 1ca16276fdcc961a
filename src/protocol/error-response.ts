/**
 * The one place an error becomes HTTP: `{error: {message, type, param, code}}` with the
 * status the error carries.
 */
import { toApiErrorData, type ApiErrorData } from '../shared/api-error';

export function errorBody(data: ApiErrorData) {
  return { error: { message: data.message, type: data.type, param: data.param, code: data.code } };
}

export function errorResponse(err: unknown): Response {
  const data = toApiErrorData(err);
  return Response.json(errorBody(data), { status: data.status });
}
