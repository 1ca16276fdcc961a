/** `POST /v1/responses`: validate, assemble the conversation, start the run, answer in the requested mode. */
import { CreateResponseRequest } from '../../protocol/create-request';
import { validationError } from '../../protocol/validation-error';
import { invalidRequest } from '../../shared/api-error';
import { newId } from '../../shared/ids';
import type { StoredItem } from '../../protocol/output-items';
import { isWebSearch } from '../builtin-functions';
import { checkAllowedTools } from '../allowed-tools';
import { chainItems, checkToolOutputs, toConversation } from '../chain-history';
import { normalizeInput } from '../normalize-input';
import { initialResponse } from '../response-factory';
import { ResponseRun } from '../response-run';
import { buildRunPlan, type RunPlan } from '../run-plan';
import { lookupModel, type ServedModel, type ServerState } from '../server-state';
import { presentEvents, presentResponse } from '../include-filter';
import { sseResponse } from '../sse-body';
import { obfuscated } from '../obfuscation';
import { sealEvents, sealResponse } from '../sealed-output';
import { readJsonBody } from './read-json';
import type { ConversationItem } from '../../chat/chat-format';
import { truncateToFit } from '../truncate-conversation';
import { pruneSoon } from './local-storage';
import { Codes } from '../../shared/error-codes';

/** A create body, validated, with its conversation assembled and its run planned (and rendered once). */
export interface PreparedRequest {
  request: CreateResponseRequest;
  model: ServedModel;
  /** The new input as it is stored. */
  input: StoredItem[];
  plan: RunPlan;
  /** The plan's first-round input in the model's tokens (`Engine.countTokens`). */
  promptTokens: number;
}

/** Everything `POST /v1/responses` does before a response exists; `input_tokens` stops here too. */
export async function prepareRequest(state: ServerState, httpRequest: Request): Promise<PreparedRequest> {
  const body = await readJsonBody(httpRequest);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidRequest('The request body must be a JSON object.', null, Codes.invalidType);
  const parsed = CreateResponseRequest.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error, body);
  const request = parsed.data;

  const background = request.background ?? false;
  const store = request.store ?? true;
  if (background && !store)
    throw invalidRequest('Background mode requires store=true: a background response must be stored to be retrieved.', 'background', Codes.invalidValue);
  const model = lookupModel(state, request.model);
  checkToolChoice(request);
  checkBuiltinTools(state, request);

  const history = await chainItems(state.store, request.previous_response_id);
  const input = await normalizeInput(request.input, (id) => state.store.findItem(id), (id, sealed, param) => state.sealer.open(id, sealed, param));
  if (history.length === 0 && input.length === 0)
    throw invalidRequest("Missing required parameter: 'input'.", 'input', Codes.missingRequiredParameter);
  checkToolOutputs(history, input);
  const conversation = toConversation([...history, ...input]);

  // Plan (and render) once; reject an over-long input before anything is stored or streamed.
  const containerId = containerFor(request, history);
  const planFor = (items: readonly ConversationItem[]) =>
    buildRunPlan({ request, format: model.format, conversation: items, containerId, maxToolRounds: state.maxToolRounds });
  let plan = planFor(conversation);
  let promptTokens = await model.engine.countTokens(model.info.id, plan.input);
  if (request.truncation === 'auto' && promptTokens > model.info.context_window) {
    const measure = (items: ConversationItem[]) => model.engine.countTokens(model.info.id, planFor(items).input);
    plan = planFor(await truncateToFit(conversation, model.info.context_window, measure));
    promptTokens = await model.engine.countTokens(model.info.id, plan.input);
  }
  return { request, model, input, plan, promptTokens };
}

export async function createResponse(state: ServerState, httpRequest: Request): Promise<Response> {
  const { request, model, input, plan, promptTokens } = await prepareRequest(state, httpRequest);
  const background = request.background ?? false;
  const store = request.store ?? true;
  if (promptTokens > model.info.context_window)
    throw invalidRequest(
      `Your input exceeds the context window of ${model.info.id} (${promptTokens} tokens, ${model.info.context_window} allowed). Shorten the input or start a new conversation without previous_response_id.`,
      'input',
      Codes.contextLengthExceeded,
    );

  // The place in line is taken now, before any await: a request that has to wait is
  // `queued` (and says so with response.queued) even when many arrive at once.
  const place = model.queue.reserve();
  const status = background || !place.first ? 'queued' : 'in_progress';
  const initial = initialResponse(newId('resp'), request, status, state.now());
  try {
    if (store) await state.store.create(initial, input);
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
  });
  state.runs.set(run.id, run);
  void run.done.finally(() => {
    state.runs.delete(run.id);
    pruneSoon(state);
  });

  // A client that goes away stops a foreground response; a background one runs on.
  const disconnect = () => {
    if (!background) run.stop('disconnect');
  };
  httpRequest.signal.addEventListener('abort', disconnect, { once: true });

  const { include } = plan;
  if (request.stream) {
    const events = sealEvents(presentEvents(run.log.follow(-1), include), include, state.sealer);
    return sseResponse(request.stream_options?.include_obfuscation ? obfuscated(events) : events, disconnect);
  }
  if (background) return Response.json(await sealResponse(presentResponse(run.snapshot(), include), include, state.sealer));
  return Response.json(await sealResponse(presentResponse(await run.done, include), include, state.sealer));
}

function checkToolChoice(request: CreateResponseRequest): void {
  const choice = request.tool_choice;
  const names = new Set((request.tools ?? []).flatMap((t) => (t.type === 'function' ? [t.name] : [])));
  if (choice === 'required' && (request.tools ?? []).length > 0) return;
  if (choice === 'required' && names.size === 0)
    throw invalidRequest("Tool choice 'required' must be specified with 'tools' parameter.", 'tool_choice', Codes.invalidValue);
  if (typeof choice === 'object' && choice.type === 'allowed_tools') return checkAllowedTools(request);
  if (typeof choice === 'object' && !names.has(choice.name))
    throw invalidRequest(`Tool choice '${choice.name}' not found in 'tools' parameter.`, 'tool_choice', Codes.invalidValue);
}

/** A builtin tool the runtime cannot run is a 400; so is a function that takes a builtin's name. */
function checkBuiltinTools(state: ServerState, request: CreateResponseRequest): void {
  const tools = request.tools ?? [];
  const builtinNames = new Set<string>();
  tools.forEach((tool, i) => {
    if (tool.type === 'code_interpreter') {
      if (!state.tools.codeInterpreter)
        throw invalidRequest('The code_interpreter tool is not available in this runtime (Python could not be started here).', `tools[${i}].type`, Codes.unsupportedTool);
      builtinNames.add('python');
    } else if (isWebSearch(tool)) {
      if (!state.tools.webSearch) throw invalidRequest('The web_search tool is not available in this runtime.', `tools[${i}].type`, Codes.unsupportedTool);
      ['search', 'open_page', 'find_in_page'].forEach((n) => builtinNames.add(n));
    }
  });
  tools.forEach((tool, i) => {
    if (tool.type === 'function' && builtinNames.has(tool.name))
      throw invalidRequest(
        `Function name '${tool.name}' is reserved by an enabled builtin tool; rename the function.`,
        `tools[${i}].name`,
        Codes.invalidValue,
      );
  });
}

/** Python state lives per conversation: reuse the chain's container, else the one named, else a new one. */
function containerFor(request: CreateResponseRequest, history: StoredItem[]): string {
  const previous = [...history].reverse().find((item) => item.type === 'code_interpreter_call');
  if (previous?.type === 'code_interpreter_call') return previous.container_id;
  const tool = (request.tools ?? []).find((t) => t.type === 'code_interpreter');
  if (tool?.type === 'code_interpreter' && typeof tool.container === 'string') return tool.container;
  return newId('cntr');
}
