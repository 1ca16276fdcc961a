/**
 * What a response run does, decided once from the validated request: the tools the model is
 * told about and which of them are builtins the runtime runs, how a conversation is rendered
 * for the model, the generation parameters every round sends, and the limits of the turn
 * loop. The run reads the plan; it never looks at the request again, so no round can derive
 * something differently from another (or from the context-window check).
 */
import type { ChatFormat, ConversationItem, Rendered, RenderInput, StreamParser, ToolSpec } from '../../chat/chat-format';
import { thinkingFromEffort } from '../../chat/thinking-from-effort';
import type { GenerateRequest } from '../../ports/engine';
import type { CreateResponseRequest, ReasoningSummary, Tool } from '../../protocol/create-request';
import type { Compaction, StoredItem } from '../../protocol/output-items';
import type { ToolHost, TurnItems } from '../../ports/builtin-tool';
import type { Includes } from '../output/include-filter';
import type { ToolRegistry } from '../state/tool-registry';
import { ToolSessions } from './tool-sessions';
import { toolsInPlay } from './allowed-tools';
import { forcedToolName } from './tool-choice';
import { outputGrammarFor } from './output-grammar';
import { clientCallFields, clientToolFunctions, type ClientToolTarget } from '../model-view/client-tools';
import { withVerbosity } from './verbosity';
import { withoutDeferred } from './deferred-tools';
import { callableBy } from '../../protocol/program-items';

/** What every model call of the run sends besides the input, the output budget and the signal. */
export type GenerationParams = Omit<GenerateRequest, 'model' | 'input' | 'maxOutputTokens' | 'signal'>;

export interface RunPlan {
  model: string;
  /** Tools described to the model (none when `tool_choice` is `none`). */
  tools: readonly ToolSpec[];
  /** A parser for one round's raw output: the model's chat format, reading calls of the tools described to it. */
  createParser(): StreamParser;
  /** Model-side names of the builtin tools the runtime runs itself (a client function of the same name is the client's). */
  builtinNames: ReadonlySet<string>;
  /** The builtin tools' part in this response: their functions, and the calls the model makes. */
  sessions: ToolSessions;
  /** Model-side names of the tools whose calls the client runs, beyond plain functions: what each stands for (model-view/client-tools.ts). */
  clientTools: ReadonlyMap<string, ClientToolTarget>;
  /** The conversation the first round shows the model. */
  conversation: readonly ConversationItem[];
  /** That conversation rendered: the first round's input, and what the context-window check counts. */
  input: Rendered;
  /** Renders a later round's conversation the same way (instructions, tools, thinking). */
  render(conversation: readonly ConversationItem[]): Rendered;
  /** What `render` renders: the conversation with instructions and tools (what engines that template for themselves get). */
  describe(conversation: readonly ConversationItem[]): RenderInput;
  generation: GenerationParams;
  /** `max_output_tokens`: output tokens allowed over all rounds. */
  maxOutputTokens?: number;
  /** `max_tool_calls`: builtin calls allowed before the run ends. */
  maxToolCalls?: number;
  /** Model ⇄ builtin tool rounds allowed before the run ends `incomplete`. */
  maxToolRounds: number;
  /** `parallel_tool_calls: false`: the first complete call ends the model's turn. */
  singleCall: boolean;
  /** `reasoning.summary` (or its old name `generate_summary`); absent = no summaries. */
  reasoningSummary?: ReasoningSummary;
  /** What the client asked to see (`include`). */
  include: Includes;
  /** Persist the response (`store !== false`). */
  persist: boolean;
  /** Keep an event log in storage (streamed or background responses). */
  logEvents: boolean;
  /** This plan with the tools' functions as they are now (a tool's `prepare` may have added some): first round re-rendered. */
  withCurrentTools(): RunPlan;
  /**
   * The request's input as stored, when the response belongs to a conversation and is
   * stored: it and the output are appended to the conversation when the run ends.
   */
  conversationInput: readonly StoredItem[] | null;
  /** A compaction made for this response (auto-compaction.ts): its first output item, and what writing it cost. */
  compaction?: { item: Compaction; usage: { inputTokens: number; outputTokens: number }; /** A compaction_trigger's: the compaction is the whole response. */ only?: boolean };
  /** The model's context window, in tokens (retrieved passages are packed into what is left of it); 0 when unknown. */
  contextWindow: number;
}

export interface RunPlanSource {
  request: CreateResponseRequest;
  format: ChatFormat;
  /** The chain's history and the new input, as the model sees them. */
  conversation: readonly ConversationItem[];
  maxToolRounds: number;
  /** The builtin tools this runtime has. */
  tools: ToolRegistry;
  /** The chain's stored items and this request's input (tools read their earlier items: a container, a listing). */
  turn: TurnItems;
  /** What the runtime offers tools (vector search). */
  host: ToolHost;
  /** The stored input, for a response in a conversation. */
  conversationInput?: readonly StoredItem[];
  /** The model's context window (tokens). */
  contextWindow?: number;
}

/** The plan for `request`: call once per request, after validation. Renders the first round. */
export function buildRunPlan({ request, format, conversation, maxToolRounds, tools: registry, turn, host, conversationInput, contextWindow = 0 }: RunPlanSource): RunPlan {
  const toolsOn = request.tool_choice !== 'none';
  const clientFunctions = new Set((request.tools ?? []).flatMap((t) => (t.type === 'function' ? [t.name] : [])));
  const enableThinking = thinkingFromEffort(request.reasoning?.effort);
  const choice = request.tool_choice ?? 'auto';
  const generation: GenerationParams = {
    ...(enableThinking !== undefined ? { enableThinking } : {}),
    ...(request.temperature != null ? { temperature: request.temperature } : {}),
    ...(request.top_p != null ? { topP: request.top_p } : {}),
    ...(request.reasoning?.effort ? { reasoningEffort: request.reasoning.effort } : {}),
    ...(request.parallel_tool_calls != null ? { parallelToolCalls: request.parallel_tool_calls } : {}),
    ...toolChoiceOf(choice, request.tools),
    ...jsonConstraint(request),
    // Asked of the engine only when they are returned: `top_logprobs` alone changes nothing a client sees.
    ...(request.include?.includes('message.output_text.logprobs') ? { topLogprobs: request.top_logprobs ?? 0 } : {}),
  };
  const background = request.background ?? false;
  const reasoningSummary = request.reasoning?.summary ?? request.reasoning?.generate_summary ?? undefined;
  const inPlay = toolsOn ? toolsInPlay(request, registry.sameTool) : [];
  // Deferred tools are left out of the leading list (deferred-tools.ts); their targets are known from the start.
  const listed = withoutDeferred(inPlay);
  const clientTools = new Map(inPlay.flatMap((tool) => clientToolFunctions(tool).map((f) => [f.spec.name, f.target] as const)));
  const sessions = ToolSessions.open(registry, inPlay, turn, host);
  /** What a search loaded (earlier, or during this run): callable, shown where it was loaded, never in the leading list. */
  const loadedSpecs = (): ToolSpec[] => [
    ...sessions.loaded().flatMap((tool) => {
      for (const f of clientToolFunctions(tool)) if (!clientTools.has(f.spec.name)) clientTools.set(f.spec.name, f.target);
      return specsOf(tool, []);
    }),
    ...loadedBuiltins(),
  ];
  // Grows as loads happen: a builtin's loaded function (a deferred MCP server's) is its own to run.
  const builtinNames = new Set<string>();
  const loadedBuiltins = (): ToolSpec[] => {
    const specs = sessions.loadedFunctions();
    for (const spec of specs) builtinNames.add(spec.name);
    return specs;
  };

  const assemble = (): RunPlan => {
    const tools = listed.flatMap((tool) => specsOf(tool, sessions.functionsAt(inPlay.indexOf(tool))));
    const listedNames = new Set(tools.map((t) => t.name));
    const instructions = withVerbosity(request.instructions, request.text?.verbosity);
    const renderInput = (items: readonly ConversationItem[], shown: ToolSpec[]): RenderInput => ({
      instructions,
      items: [...items],
      tools: shown,
      ...(enableThinking !== undefined ? { enableThinking } : {}),
    });
    // An engine that templates for itself (an upstream) must be told every callable tool; a
    // local prompt keeps loaded tools out of its leading list, where the load shows them.
    const describe = (items: readonly ConversationItem[]): RenderInput => renderInput(items, [...tools, ...loadedSpecs().filter((l) => !listedNames.has(l.name))]);
    const render = (items: readonly ConversationItem[]): Rendered => format.render(renderInput(items, tools));
    const callableNames = () => new Set([...listedNames, ...loadedSpecs().map((t) => t.name)]);
    const isBuiltin = (name: string) => sessions.owner(name) !== undefined && !clientFunctions.has(name);
    // A call of a shell, patch or custom tool whose arguments do not fit its item stays text.
    const acceptsCall = (name: string, args: string) => {
      const target = clientTools.get(name);
      return !target || clientCallFields(target, args) !== null;
    };
    for (const t of tools) if (isBuiltin(t.name)) builtinNames.add(t.name);
    const outputGrammar = outputGrammarFor(format.callSyntax, tools, clientTools, request);
    return {
      model: request.model,
      tools,
      clientTools,
      // Read at each round: a search during the run makes more names callable.
      createParser: () => format.createParser({ toolNames: callableNames(), acceptsCall }),
      builtinNames,
      sessions,
      conversation,
      input: render(conversation),
      render,
      describe,
      generation: outputGrammar ? { ...generation, outputGrammar } : generation,
      ...(request.max_output_tokens != null ? { maxOutputTokens: request.max_output_tokens } : {}),
      ...(request.max_tool_calls != null ? { maxToolCalls: request.max_tool_calls } : {}),
      maxToolRounds,
      singleCall: request.parallel_tool_calls === false,
      ...(reasoningSummary ? { reasoningSummary } : {}),
      include: new Set(request.include ?? []),
      persist: request.store ?? true,
      logEvents: (request.stream ?? false) || background,
      conversationInput: conversationInput && (request.store ?? true) ? conversationInput : null,
      contextWindow,
      withCurrentTools: assemble,
    };
  };
  return assemble();
}

/**
 * What the model is told about for one entry of `tools`, in the request's order: a function
 * as given, a client tool as client-tools.ts shows it, a builtin tool's functions at its
 * first entry (`builtin`: its session's functions there, none elsewhere).
 */
function specsOf(tool: Tool, builtin: readonly ToolSpec[]): ToolSpec[] {
  // `allowed_callers: ["programmatic"]`: a program's tool only, never shown to the model.
  if ('allowed_callers' in tool && !callableBy(tool.allowed_callers, 'direct')) return [];
  if (tool.type === 'function') return [{ name: tool.name, description: tool.description, parameters: tool.parameters }];
  const client = clientToolFunctions(tool).map((f) => f.spec);
  return client.length ? client : [...builtin];
}

function toolChoiceOf(choice: NonNullable<CreateResponseRequest['tool_choice']>, tools: CreateResponseRequest['tools']): Pick<GenerateRequest, 'toolChoice'> {
  if (choice === 'required') return { toolChoice: 'required' };
  if (typeof choice !== 'object') return {};
  if (choice.type === 'allowed_tools') return choice.mode === 'required' ? { toolChoice: 'required' } : {};
  // A named tool: the model-side function it is shown as (`ns__fn`, `shell`, …).
  const name = forcedToolName(choice, tools ?? []);
  return name ? { toolChoice: { name } } : {};
}

function jsonConstraint(request: CreateResponseRequest): Pick<GenerateRequest, 'jsonSchema' | 'jsonSchemaName'> {
  const format = request.text?.format;
  if (format?.type === 'json_schema') return { jsonSchema: format.schema, jsonSchemaName: format.name };
  if (format?.type === 'json_object') return { jsonSchema: {} };
  return {};
}
