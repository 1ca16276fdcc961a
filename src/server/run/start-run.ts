/**
 * A prepared create becomes a running response: its place in its engine's line (taken
 * before any await, so a request that must wait is `queued` even when many arrive at once),
 * the stored response when `store` is on, and the run in the server's table until it ends.
 */
import type { ResponseObject } from '../../protocol/response-object';
import { newId } from '../../shared/ids';
import type { PreparedRequest } from '../request/prepare-request';
import type { RunPlan } from '../request/run-plan';
import { pruneSoon } from '../state/retention';
import type { ServerState } from '../state/server-state';
import { initialResponse } from './response-factory';
import { ResponseRun } from './response-run';

/** The run, and the response as it started (what a background create answers, before the run moves on). */
export async function startRun(state: ServerState, prepared: PreparedRequest, plan: RunPlan, options: { keepLog?: boolean } = {}): Promise<{ run: ResponseRun; started: ResponseObject }> {
  const { request, model, input } = prepared;
  const place = model.queue.reserve();
  const status = (request.background ?? false) || !place.first ? 'queued' : 'in_progress';
  const initial = initialResponse(newId('resp'), request, status, state.now(), state.tools.echo);
  try {
    if (request.store ?? true) await state.store.create(initial, input);
  } catch (err) {
    place.leave();
    throw err;
  }
  const run = new ResponseRun(initial, plan, {
    engine: model.engine,
    place,
    store: state.store,
    tools: state.tools,
    now: state.now,
    flushMs: state.flushMs,
    ...(options.keepLog ? { keepLog: true } : {}),
  });
  state.runs.set(run.id, run);
  void run.done
    .then((ended) => state.onRunEnded?.(ended), () => {})
    .finally(() => {
      state.runs.delete(run.id);
      pruneSoon(state);
    });
  // Taken before this function returns: the run starts at the next tick.
  return { run, started: run.snapshot() };
}
