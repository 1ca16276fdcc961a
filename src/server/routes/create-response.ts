/** `POST /v1/responses`: parse, prepare, start the run, answer in the requested mode (JSON, stream, background). */
import { presentSnapshot, presentStream, type Presentation } from '../output/present';
import { finalPlan, prepareRequest } from '../request/prepare-request';
import type { ServerState } from '../state/server-state';
import { startRun } from '../run/start-run';
import { readJsonBody } from './http/read-json';
import { sseResponse } from './http/sse-body';

export async function createResponse(state: ServerState, httpRequest: Request): Promise<Response> {
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
  if (request.stream) return sseResponse(presentStream(run.log.follow(-1), presentation), disconnect);
  return Response.json(await presentSnapshot(background ? started : await run.done, presentation));
}
