/** `POST /v1/responses`: validate, assemble the conversation, start the run, answer in the requested mode. */
import type { ToolSpec } from '../../chat/chat-format';
import { thinkingFromEffort } from '../../chat/thinking-from-effort';
import { CreateResponseRequest } from '../../protocol/create-request';
import { validationError } from '../../protocol/validation-error';
import { invalidRequest } from '../../shared/api-error';
import { newId } from '../../shared/ids';
import { chainItems, checkToolOutputs, toConversation } from '../conversation';
import { normalizeInput } from '../input-items';
import { initialResponse } from '../response-factory';
import { ResponseRun } from '../response-run';
import { lookupModel, type ServerState } from '../server-state';
import { sseResponse } from '../sse-body';
import { readJsonBody } from './read-json';

export async function createResponse(state: ServerState, httpRequest: Request): Promise<Response> {
  const body = await readJsonBody(httpRequest);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidRequest('The request body must be a JSON object.', null, 'invalid_type');
  const parsed = CreateResponseRequest.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error, body);
  const request = parsed.data;

  const background = request.background ?? false;
  const store = request.store ?? true;
  if (background && !store)
    throw invalidRequest('Background mode requires store=true: a background response must be stored to be retrieved.', 'background', 'invalid_value');
  const model = lookupModel(state, request.model);
  checkToolChoice(request);

  const history = await chainItems(state.store, request.previous_response_id);
  const input = await normalizeInput(request.input, (id) => state.store.findItem(id));
  if (history.length === 0 && input.length === 0)
    throw invalidRequest("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  checkToolOutputs(history, input);
  const conversation = toConversation([...history, ...input]);

  // Render once; reject an over-long prompt before anything is stored or streamed.
  const tools: ToolSpec[] =
    request.tool_choice === 'none' ? [] : (request.tools ?? []).map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
  const enableThinking = thinkingFromEffort(request.reasoning?.effort);
  const rendered = model.format.render({
    instructions: request.instructions,
    items: conversation,
    tools,
    ...(enableThinking !== undefined ? { enableThinking } : {}),
  });
  const promptTokens = await model.engine.countTokens(model.info.id, rendered.prompt);
  if (promptTokens > model.info.context_window)
    throw invalidRequest(
      `Your input exceeds the context window of ${model.info.id} (${promptTokens} tokens, ${model.info.context_window} allowed). Shorten the input or start a new conversation without previous_response_id.`,
      'input',
      'context_length_exceeded',
    );

  const status = background || !model.queue.idle ? 'queued' : 'in_progress';
  const initial = initialResponse(newId('resp'), request, status, state.now());
  if (store) await state.store.create(initial, input);

  const streaming = request.stream ?? false;
  const run = new ResponseRun(initial, {
    request,
    engine: model.engine,
    format: model.format,
    queue: model.queue,
    conversation,
    tools,
    rendered,
    enableThinking,
    store: store ? state.store : null,
    logEvents: streaming || background,
    now: state.now,
    flushMs: state.flushMs,
  });
  state.runs.set(run.id, run);
  void run.done.finally(() => state.runs.delete(run.id));

  // A client that goes away stops a foreground response; a background one runs on.
  const disconnect = () => {
    if (!background) run.stop('disconnect');
  };
  httpRequest.signal.addEventListener('abort', disconnect, { once: true });

  if (streaming) return sseResponse(run.log.follow(-1), disconnect);
  if (background) return Response.json(run.snapshot());
  return Response.json(await run.done);
}

function checkToolChoice(request: CreateResponseRequest): void {
  const choice = request.tool_choice;
  const names = new Set((request.tools ?? []).map((t) => t.name));
  if (choice === 'required' && names.size === 0)
    throw invalidRequest("Tool choice 'required' must be specified with 'tools' parameter.", 'tool_choice', 'invalid_value');
  if (typeof choice === 'object' && !names.has(choice.name))
    throw invalidRequest(`Tool choice '${choice.name}' not found in 'tools' parameter.`, 'tool_choice', 'invalid_value');
}
