/**
 * What a response run does, decided once from the validated request: the tools the model is
 * told about and which of them are builtins the runtime runs, how a conversation is rendered
 * for the model, the generation parameters every round sends, and the limits of the turn
 * loop. The run reads the plan; it never looks at the request again, so no round can derive
 * something differently from another (or from the context-window check).
 */
import type { ChatFormat, ConversationItem, Rendered, StreamParser, ToolSpec } from '../chat/chat-format';
import { thinkingFromEffort } from '../chat/thinking-from-effort';
import type { GenerateRequest } from '../engine/engine';
import type { CreateResponseRequest } from '../protocol/create-request';
import type { StoredItem } from '../protocol/output-items';
import { BUILTIN_BY_NAME, modelTools } from './builtin-functions';
import type { Includes } from './include-filter';

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
  /** The conversation the first round shows the model. */
  conversation: readonly ConversationItem[];
  /** That conversation rendered: the first round's input, and what the context-window check counts. */
  input: Rendered;
  /** Renders a later round's conversation the same way (instructions, tools, thinking). */
  render(conversation: readonly ConversationItem[]): Rendered;
  generation: GenerationParams;
  /** `max_output_tokens`: output tokens allowed over all rounds. */
  maxOutputTokens?: number;
  /** `max_tool_calls`: builtin calls allowed before the run ends. */
  maxToolCalls?: number;
  /** Model ⇄ builtin tool rounds allowed before the run ends `incomplete`. */
  maxToolRounds: number;
  /** `parallel_tool_calls: false`: the first complete call ends the model's turn. */
  singleCall: boolean;
  /** Where this conversation's Python state lives. */
  containerId: string;
  /** What the client asked to see (`include`). */
  include: Includes;
  /** Persist the response (`store !== false`). */
  persist: boolean;
  /** Keep an event log in storage (streamed or background responses). */
  logEvents: boolean;
  /**
   * The request's input as stored, when the response belongs to a conversation and is
   * stored: it and the output are appended to the conversation when the run ends.
   */
  conversationInput: readonly StoredItem[] | null;
}

export interface RunPlanSource {
  request: CreateResponseRequest;
  format: ChatFormat;
  /** The chain's history and the new input, as the model sees them. */
  conversation: readonly ConversationItem[];
  containerId: string;
  maxToolRounds: number;
  /** The stored input, for a response in a conversation. */
  conversationInput?: readonly StoredItem[];
}

/** The plan for `request`: call once per request, after validation. Renders the first round. */
export function buildRunPlan({ request, format, conversation, containerId, maxToolRounds, conversationInput }: RunPlanSource): RunPlan {
  const tools = request.tool_choice === 'none' ? [] : modelTools(request.tools ?? []);
  const clientFunctions = new Set((request.tools ?? []).flatMap((t) => (t.type === 'function' ? [t.name] : [])));
  const enableThinking = thinkingFromEffort(request.reasoning?.effort);
  const render = (items: readonly ConversationItem[]): Rendered =>
    format.render({
      instructions: request.instructions,
      items: [...items],
      tools,
      ...(enableThinking !== undefined ? { enableThinking } : {}),
    });
  const choice = request.tool_choice ?? 'auto';
  const generation: GenerationParams = {
    ...(enableThinking !== undefined ? { enableThinking } : {}),
    ...(request.temperature != null ? { temperature: request.temperature } : {}),
    ...(request.top_p != null ? { topP: request.top_p } : {}),
    ...(choice === 'required' ? { toolChoice: 'required' as const } : typeof choice === 'object' ? { toolChoice: { name: choice.name } } : {}),
    ...jsonConstraint(request),
  };
  const background = request.background ?? false;
  const toolNames = new Set(tools.map((t) => t.name));
  return {
    model: request.model,
    tools,
    createParser: () => format.createParser({ toolNames }),
    builtinNames: new Set(tools.map((t) => t.name).filter((name) => BUILTIN_BY_NAME.has(name) && !clientFunctions.has(name))),
    conversation,
    input: render(conversation),
    render,
    generation,
    ...(request.max_output_tokens != null ? { maxOutputTokens: request.max_output_tokens } : {}),
    ...(request.max_tool_calls != null ? { maxToolCalls: request.max_tool_calls } : {}),
    maxToolRounds,
    singleCall: request.parallel_tool_calls === false,
    containerId,
    include: new Set(request.include ?? []),
    persist: request.store ?? true,
    logEvents: (request.stream ?? false) || background,
    conversationInput: conversationInput && (request.store ?? true) ? conversationInput : null,
  };
}

function jsonConstraint(request: CreateResponseRequest): Pick<GenerateRequest, 'jsonSchema'> {
  const format = request.text?.format;
  if (format?.type === 'json_schema') return { jsonSchema: format.schema };
  if (format?.type === 'json_object') return { jsonSchema: {} };
  return {};
}
