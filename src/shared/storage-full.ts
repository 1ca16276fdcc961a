/** A full origin storage, recognised and answered the same way by every store that writes. */
import { ApiError } from './api-error';
import { Codes } from './error-codes';

/** Whether an error means "the origin's storage is full" (names differ by browser and wrapper). */
export function isStorageFull(err: unknown): boolean {
  if (err instanceof ApiError) return err.data.code === Codes.storageFull;
  const name = (err as { name?: unknown } | null)?.name;
  const message = (err as { message?: unknown } | null)?.message;
  return name === 'QuotaExceededError' || (typeof message === 'string' && /quota|disk is full|no space/i.test(message));
}

/** The error a client gets when its request cannot be stored. */
export function storageFull(cause: unknown): ApiError {
  return new ApiError(
    {
      status: 507,
      type: 'server_error',
      code: Codes.storageFull,
      param: null,
      message:
        "This browser's storage for the app is full, so the response could not be saved. Free space (delete old conversations or downloaded models in the app), or send the request with store: false.",
    },
    { cause },
  );
}
