/** `POST /v1/responses`: parse, prepare, start the run, answer in the requested mode (JSON, stream, background). */
import { presentSnapshot, presentStream, type Presentation } from '../output/present';
import { finalPlan, prepareRequest } from '../request/prepare-request';
import type { ServerState } from '../state/server-state';
import { startRun } from '../run/start-run';
import type { ResponseRun } from '../run/response-run';
import { connectionDeadline } from '../../protocol/connection-deadline';
import { Codes } from '../../shared/error-codes';
import { readJsonBody } from './http/read-json';
import { sseResponse } from './http/sse-body';
import { beforeDeadline, deadlineMessages, errorEvent, queueTimeoutResponse, timeLimitResponse, untilDeadline } from './http/connection-deadline';

export async function createResponse(state: ServerState, httpRequest: Request): Promise<Response> {
  const arrived = Date.now();
  // When the connection will be cut (a service worker's fetch), the answer must come before.
  const deadline = connectionDeadline(httpRequest, arrived);
  const prepared = await prepareRequest(state, await readJsonBody(httpRequest), httpRequest.signal);
  const { plan } = await finalPlan(state, prepared, httpRequest.signal);
  const { run, started } = await startRun(state, prepared, plan);
  const { request } = prepared;
  const background = request.background ?? false;

  // A client that goes away stops a foreground response; a background one runs on.
  const disconnect = () => {
    if (!background) run.stop('disconnect');
  };
  httpRequest.signal.addEventListener('abort', disconnect, { once: true });

  const presentation: Presentation = { include: plan.include, sealer: state.sealer, tools: state.tools, obfuscate: request.stream_options?.include_obfuscation === true };
  const waited = () => Math.round((Date.now() - arrived) / 1000);
  if (request.stream) {
    const events = untilDeadline(presentStream(run.log.follow(-1), presentation), deadline, (sent) => {
      const { status } = run.snapshot();
      if (background) return errorEvent(sent + 1, Codes.connectionTimeLimit, deadlineMessages.resume(run.id, status, sent));
      if (status === 'queued') {
        run.stop('deadline');
        return errorEvent(sent + 1, Codes.queueTimeout, deadlineMessages.notStarted(waited()));
      }
      run.stop('disconnect');
      return errorEvent(sent + 1, Codes.connectionTimeLimit, deadlineMessages.stopped(run.id, waited()));
    });
    return sseResponse(events, disconnect);
  }
  if (background) return Response.json(await presentSnapshot(started, presentation));
  return beforeDeadline(answer(run, presentation), deadline, () => stopAtDeadline(run, waited()));
}

async function answer(run: ResponseRun, presentation: Presentation): Promise<Response> {
  return Response.json(await presentSnapshot(await run.done, presentation));
}

/** The plain request's answer at the deadline: it never runs if it has not started; it stops if it has. */
async function stopAtDeadline(run: ResponseRun, waitedS: number): Promise<Response> {
  const notStarted = run.snapshot().status === 'queued';
  run.stop(notStarted ? 'deadline' : 'disconnect');
  await run.done.catch(() => {});
  return notStarted ? queueTimeoutResponse(deadlineMessages.notStarted(waitedS)) : timeLimitResponse(deadlineMessages.stopped(run.id, waitedS));
}
