import { expect, test } from 'vitest';
import { ApiError, describeError, serverError, toApiErrorData } from './api-error';
import { Codes } from './error-codes';

test('an error with an empty message is described by its name (QuotaExceededError from IndexedDB)', () => {
  const quota = new DOMException('', 'QuotaExceededError');
  expect(describeError(quota)).toBe('QuotaExceededError');
  expect(toApiErrorData(quota).message).toBe('The local runtime failed: QuotaExceededError');
  expect(describeError(new TypeError('bad'))).toBe('TypeError: bad');
  expect(describeError(new Error('plain'))).toBe('plain');
  expect(describeError('a string')).toBe('a string');
});

test('ApiError keeps the error it was made from as its cause', () => {
  const original = new Error('disk');
  const err = serverError('Saving failed.', Codes.serverError, original);
  expect(err).toBeInstanceOf(ApiError);
  expect(err.cause).toBe(original);
  expect(err.data).toEqual({ status: 500, type: 'server_error', code: 'server_error', param: null, message: 'Saving failed.' });
});
