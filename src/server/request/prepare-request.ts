/**
 * Everything `POST /v1/responses` decides before a response exists, from the parsed body:
 * validation beyond the schema (modes, model, logprobs, tool choice, builtin tools, tool
 * outputs, MCP approvals), the context (chain or conversation), and the run plan rendered
 * once — over-long input is refused here, before anything is stored or streamed.
 * `POST /v1/responses/input_tokens` stops after this step; create goes on to run.
 */
import { CLIENT_TOOL_TYPES, parseCreateRequest, type CreateResponseRequest } from '../../protocol/create-request';
import { checkBackgroundOptions } from '../../protocol/background-options';
import { invalidRequest } from '../../shared/api-error';
import type { StoredItem } from '../../protocol/output-items';
import type { ConversationItem } from '../../chat/chat-format';
import { Codes } from '../../shared/error-codes';
import { clientToolFunctions } from '../model-view/client-tools';
import { resolveModel, type ServedModel, type ServerState } from '../state/server-state';
import { checkToolChoice } from './tool-choice';
import { checkToolGrammars } from './tool-grammars';
import { checkImageInputs, withImageFiles } from './image-inputs';
import { withFetchedImages } from './image-urls';
import { autoCompact } from './auto-compaction';
import { checkToolOutputs } from './chain-history';
import { checkProgramCallers } from './program-callers';
import { windowConversation } from './compaction-window';
import { readRequestContext, type CachedChain } from './request-context';
import { buildRunPlan, type RunPlan } from './run-plan';
import { truncateToFit } from './truncate-conversation';
import { carriesFiles, withFileTexts } from './input-files';
import { prepareOnRoute } from './route-decision';
import { applyContextItems } from './context-settings';
import { endsWithCompactionTrigger, triggeredCompaction } from './triggered-compaction';
import { checkDeferredTools } from './deferred-tools';
import { checkMessageOrder } from './message-order';

/** A create body, validated, with its conversation assembled and its run planned (and rendered once). */
export interface PreparedRequest {
  request: CreateResponseRequest;
  model: ServedModel;
  /** The new input as it is stored. */
  input: StoredItem[];
  plan: RunPlan;
  /** The plan's first-round input in the model's tokens (`Engine.countTokens`). */
  promptTokens: number;
  /** The same before `truncation: "auto"` dropped any turns (what compaction decides on). */
  untruncatedTokens: number;
  /** History and new input as stored items, oldest first (what a compaction covers). */
  window: StoredItem[];
  /** `window` as the model is shown it, item for item: files as their text, images as data: URLs. */
  shown: StoredItem[];
  /** Plans the run for another rendering of the conversation (after compaction). */
  planFor(conversation: readonly ConversationItem[]): RunPlan;
  /** The input ended with a `compaction_trigger`: the response is the compaction of `window`. */
  compactionTriggered?: true;
}

/** How a transport other than `POST /v1/responses` prepares a turn (the WebSocket mode). */
export interface PrepareOptions {
  /** Chains held outside storage (a WebSocket connection's latest responses), tried first. */
  cachedChain?: CachedChain;
  /** A warm-up (`generate: false`) may have no input at all: it only prepares state. */
  allowEmptyInput?: boolean;
}

/** Everything `POST /v1/responses` does before a response exists; `input_tokens` stops here too. */
export async function prepareRequest(
  state: ServerState,
  body: unknown,
  signal: AbortSignal = new AbortController().signal,
  options: PrepareOptions = {},
): Promise<PreparedRequest> {
  const request = parseCreateRequest(body, state.tools.extensions);
  // A route's name: prepared for the model that serves this request (route-decision.ts).
  const route = state.models.has(request.model) ? undefined : state.routes?.find(request.model);
  if (route) return prepareOnRoute(state, route, request, (model) => prepareFor(state, { ...request, model }, signal, options));
  return prepareFor(state, request, signal, options);
}

/** {@link prepareRequest} of a parsed body, for the model it names. */
async function prepareFor(state: ServerState, request: CreateResponseRequest, signal: AbortSignal, options: PrepareOptions): Promise<PreparedRequest> {
  const background = request.background ?? false;
  const store = request.store ?? true;
  if (background && !store)
    throw invalidRequest('Background mode requires store=true: a background response must be stored to be retrieved.', 'background', Codes.invalidValue);
  checkBackgroundOptions(request);
  const model = await resolveModel(state, request.model);
  checkLogprobs(request, model);
  await checkBuiltinTools(state, request);
  checkDeferredTools(request.tools ?? [], (type) => state.tools.loadsDeferred(type));
  checkToolGrammars(request, model);

  const { conversationId, history, input } = await readRequestContext(state, request, options.cachedChain);
  const compactionTriggered = endsWithCompactionTrigger(request);
  if (compactionTriggered && history.length === 0 && input.length === 0)
    throw invalidRequest('Nothing to compact: a compaction_trigger needs input before it, a previous_response_id or a conversation.', 'input', Codes.missingRequiredParameter);
  if (history.length === 0 && input.length === 0 && !options.allowEmptyInput)
    throw invalidRequest("Missing required parameter: 'input'.", 'input', Codes.missingRequiredParameter);
  // Tools and settings that additional_tools and configuration_update items bring (context-settings.ts).
  const settings = applyContextItems(request, history, input, conversationId !== null ? 'conversation' : 'previous_response_id', state.tools);
  if (settings.changed) {
    request = settings.request;
    await checkBuiltinTools(state, request, settings.toolParam);
    checkToolGrammars(request, model);
  }
  // After the context: tool_choice may name a tool that an additional_tools item declared.
  checkToolChoice(request, state.tools.sameTool);
  checkToolOutputs(history, input);
  checkProgramCallers(request.tools ?? [], history, input);
  checkImageInputs(model, history, input, conversationId !== null ? 'conversation' : 'previous_response_id');
  if (!options.allowEmptyInput) checkMessageOrder(model, [...history, ...input], input.length);
  for (const [tool, entries] of state.tools.entries(request.tools ?? [])) tool.checkTurn?.(entries, { history, input });
  const window = [...history, ...input];
  // Files in messages are shown as their text (the stored items keep the parts as sent).
  const withTexts = await withFileTexts(state.files, window, input.length, signal);
  // Images named by file_id or https: URL are shown as their bytes (data: URLs) to a model
  // that sees: the runtime fetches a URL under its policy, an engine never does (image-urls.ts).
  const shown = model.info.input_modalities?.includes('image')
    ? await withFetchedImages(state.imageFetcher, await withImageFiles(state.files, withTexts, input.length), input.length, signal)
    : withTexts;
  const conversation = await windowConversation(shown, state.tools, (item) => state.compactions.open(item.encrypted_content, 'input'));

  // Plan (and render) once; reject an over-long input before anything is stored or streamed.
  const turn = { history, input };
  const planFor = (items: readonly ConversationItem[]) =>
    buildRunPlan({
      request,
      format: model.format,
      conversation: items,
      maxToolRounds: state.maxToolRounds,
      tools: state.tools,
      turn,
      host: state.toolHost,
      contextWindow: model.info.context_window,
      ...(conversationId !== null ? { conversationInput: input } : {}),
    });
  let plan = planFor(conversation);
  const untruncatedTokens = await model.engine.countTokens(model.info.id, plan.input);
  let promptTokens = untruncatedTokens;
  if (request.truncation === 'auto' && promptTokens > model.info.context_window) {
    const measure = (items: ConversationItem[]) => model.engine.countTokens(model.info.id, planFor(items).input);
    plan = planFor(await truncateToFit(conversation, model.info.context_window, measure));
    promptTokens = await model.engine.countTokens(model.info.id, plan.input);
  }
  return { request, model, input, window, shown, planFor, plan, promptTokens, untruncatedTokens, ...(compactionTriggered ? { compactionTriggered } : {}) };
}

/** Logprobs are asked for (`top_logprobs` above 0, or the include) of a model whose engine cannot report them (or not that many alternatives): a 400 naming both. */
function checkLogprobs(request: CreateResponseRequest, model: ServedModel): void {
  const top = request.top_logprobs ?? 0;
  const max = model.engine.maxTopLogprobs ?? 20;
  if (model.engine.reportsLogprobs && top > max)
    throw invalidRequest(
      `The model '${model.info.id}' reports at most ${max} top_logprobs per token (its ${model.engine.name} engine's limit); got ${top}. Ask for ${max} or fewer.`,
      'top_logprobs',
      Codes.logprobsUnsupported,
    );
  if (model.engine.reportsLogprobs) return;
  const param = request.include?.includes('message.output_text.logprobs') ? 'include' : (request.top_logprobs ?? 0) > 0 ? 'top_logprobs' : null;
  if (param === null) return;
  throw invalidRequest(
    `The model '${model.info.id}' cannot report log probabilities (its ${model.engine.name} engine does not give them to this runtime): remove '${param === 'include' ? 'message.output_text.logprobs' : 'top_logprobs'}' from the request, or choose another model.`,
    param,
    Codes.logprobsUnsupported,
  );
}

/**
 * The plan a create runs: compacted first when `context_management` asks for it (the model
 * writes the summary, holding its engine), then refused if it still does not fit.
 */
export async function finalPlan(state: ServerState, prepared: PreparedRequest, signal: AbortSignal): Promise<{ plan: RunPlan; promptTokens: number }> {
  const { model } = prepared;
  if (prepared.compactionTriggered) return triggeredCompaction(state, prepared, signal);
  const { plan, promptTokens } = (await autoCompact(state, prepared, signal)) ?? prepared;
  if (promptTokens > model.info.context_window && carriesFiles(prepared.window))
    throw invalidRequest(
      `The files in the input are too long for the context window of ${model.info.id} (${promptTokens} tokens, ${model.info.context_window} allowed). Add them to a vector store (POST /v1/vector_stores) and give the model the file_search tool instead: it reads only the passages it needs.`,
      'input',
      Codes.contextLengthExceeded,
    );
  if (promptTokens > model.info.context_window)
    throw invalidRequest(
      `Your input exceeds the context window of ${model.info.id} (${promptTokens} tokens, ${model.info.context_window} allowed). Shorten the input or start a new conversation without previous_response_id.`,
      'input',
      Codes.contextLengthExceeded,
    );
  return { plan, promptTokens };
}

/**
 * Each builtin tool's entries are checked by their tool (a tool this runtime lacks is a 400
 * naming it); a function may not take a name an enabled builtin tool's functions take.
 */
async function checkBuiltinTools(state: ServerState, request: CreateResponseRequest, param: (i: number) => string = (i) => `tools[${i}]`): Promise<void> {
  const tools = request.tools ?? [];
  tools.forEach((tool, i) => {
    if (!CLIENT_TOOL_TYPES.has(tool.type) && !state.tools.forToolType(tool.type))
      throw invalidRequest(`The ${tool.type} tool is not available in this runtime.`, `${param(i)}.type`, Codes.unsupportedTool);
  });
  const builtinNames = new Set<string>();
  for (const [tool, entries] of state.tools.entries(tools)) {
    await tool.check?.(entries, state.toolHost, tools);
    for (const name of tool.functionNames?.(entries.map((e) => e.tool)) ?? []) builtinNames.add(name);
  }
  tools.forEach((tool, i) => {
    if (tool.type === 'function' && builtinNames.has(tool.name))
      throw invalidRequest(
        `Function name '${tool.name}' is reserved by an enabled builtin tool; rename the function.`,
        `${param(i)}.name`,
        Codes.invalidValue,
      );
  });
  // Every tool is one or more functions to the model: no two may share a name (`shell`, `<namespace>__<name>`, …).
  const seen = new Map<string, number>();
  tools.forEach((tool, i) => {
    if (tool.type !== 'function' && clientToolFunctions(tool).length === 0) return;
    const names = tool.type === 'function' ? [tool.name] : clientToolFunctions(tool).map((f) => f.spec.name);
    for (const name of names) {
      const earlier = seen.get(name);
      if (earlier !== undefined || builtinNames.has(name))
        throw invalidRequest(
          `Two tools would both be called '${name}' (${param(earlier ?? i)} and ${param(i)}; a namespace's tools are called '<namespace>__<name>'): rename one.`,
          param(i),
          Codes.invalidValue,
        );
      seen.set(name, i);
    }
  });
}
