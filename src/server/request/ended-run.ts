/**
 * A run that has ended but whose final save has not landed yet: retrieve already answers its
 * terminal snapshot, so a client may continue from it at once. What reads storage for the
 * continuation (its chain, its conversation) waits for that save rather than finding the
 * stored row still running (compressing a log makes the save take a few milliseconds).
 */
import { TERMINAL_STATUSES } from '../../protocol/response-object';
import type { RunningResponse } from '../state/running-response';

/** True once `run` has ended and been saved; false when it is still running (or absent). */
export async function endedAndSaved(run: RunningResponse | undefined): Promise<boolean> {
  if (!run || !TERMINAL_STATUSES.has(run.snapshot().status)) return false;
  await run.done.catch(() => undefined);
  return true;
}
