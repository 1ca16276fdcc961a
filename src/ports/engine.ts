/**
 * The Engine port: what the server needs from an inference backend.
 *
 * An engine turns a rendered conversation into raw model text. It knows nothing of
 * HTTP, Responses items or tool-call syntax: parsing `<think>` / `<tool_call>` happens
 * once, in `chat/`, for every engine.
 *
 * What the model is shown is one value, the chat format's `Rendered` input: the engine
 * counts it (`countTokens`, the context-window check) and generates from it, so the check
 * measures exactly what the engine will feed its model.
 */
import type { ParseEvent, Rendered, RenderInput } from '../chat/chat-format';
import type { Grammar } from '../chat/grammar/grammar';

/** The grammar syntaxes of OpenAI's custom tools. */
export type GrammarSyntax = 'lark' | 'regex';

// Engines report load progress in the wire's shape (`protocol/local-status.ts`, one
// definition); re-exported so an engine's options can name it next to the port.
export type { LoadProgress } from '../protocol/local-status';

export interface ModelInfo {
  id: string;
  /** Unix seconds; stable per catalog entry. */
  created: number;
  owned_by: string;
  /** Tokens the model can attend to (prompt + output). */
  context_window: number;
  /** Which `chat/` format renders prompts and parses output for this model (e.g. `qwen`). */
  chat_format: string;
  /** Human name for the UI (e.g. `Qwen3 1.7B`). */
  label?: string;
  /** Hidden from the UI's model picker (test models). */
  hidden?: boolean;
  /** Bytes to download (weights + model library), when known. */
  download_bytes?: number;
  /** GPU memory the model needs once loaded, when known. */
  vram_bytes?: number;
  capabilities?: { tools: boolean; reasoning: boolean };
  /** What the model reads besides text: `image` for models that see (`input_image`). Absent: text only. */
  input_modalities?: Array<'text' | 'image'>;
}

export interface GenerateRequest {
  model: string;
  /**
   * The conversation as the model's chat format rendered it — the one input of every
   * engine. Each engine feeds its model the form it consumes (web-llm: the messages, to which
   * it applies its own template; wllama: a GGUF's own template over the messages, or the
   * prompt; the scripted model: the prompt) and counts that same form in `countTokens`.
   */
  input: Rendered;
  /**
   * The conversation `input` was rendered from (instructions, items, tool specs), for engines
   * that template and parse for themselves (`Engine.parsesOutput`: an upstream server).
   * Always set by the server; engines that generate from `input` ignore it.
   */
  conversation?: RenderInput;
  /** `reasoning.effort` as the request named it, for engines that pass it on (an upstream's `reasoning_effort`). */
  reasoningEffort?: string;
  /** `parallel_tool_calls` when the request set it (engines that call an upstream pass it on). */
  parallelToolCalls?: boolean;
  /** `text.format.name` of a `json_schema` format, for engines that pass the format on. */
  jsonSchemaName?: string;
  /** `reasoning.effort` mapped to on/off for models that can think; undefined = the model's default. */
  enableThinking?: boolean;
  maxOutputTokens?: number;
  /** `auto` lets the model choose; `required`/a name ask for a call (engines with grammars can force it). */
  toolChoice?: 'auto' | 'required' | { name: string };
  temperature?: number;
  topP?: number;
  stop?: string[];
  /** Structured output constraint, already reduced to a JSON schema (or `{}` for any JSON object). */
  jsonSchema?: Record<string, unknown>;
  /**
   * The whole output's grammar, when a custom tool's grammar constrains its input: text and
   * calls in the chat family's syntax, each custom tool's input in its grammar's language
   * (`chat/grammar/call-grammar.ts`; print it with `printGrammar`). Only sent to engines whose
   * `grammarSyntaxes` has the tools' syntaxes.
   */
  outputGrammar?: Grammar;
  /**
   * Report each token's log probability with this many most likely alternatives (0–20) on
   * every delta (`EngineDelta.logprobs`). Absent: no logprobs. Only sent to engines whose
   * `reportsLogprobs` is true.
   */
  topLogprobs?: number;
  signal: AbortSignal;
}

/** A candidate token and its log probability, in OpenAI's `Logprob.TopLogprob` shape. */
export interface TokenLogprob {
  token: string;
  logprob: number;
  /** The token's UTF-8 bytes. */
  bytes: number[];
}

/** A sampled token's log probability and its most likely alternatives (OpenAI's `Logprob`). */
export interface SampledLogprob extends TokenLogprob {
  top_logprobs: TokenLogprob[];
}

/** One step of generation: raw text and the number of tokens it came from. */
export interface EngineDelta {
  /** Raw model text (`''` from engines that yield `events`). */
  text: string;
  tokens: number;
  /**
   * From engines with `parsesOutput`: this step already parsed (text, reasoning, tool
   * calls), to be taken as it is — never run through a chat format's parser, so a model that
   * writes a literal `<tool_call>` stays text. `logprobs` then belong to its `text` events.
   */
  events?: ParseEvent[];
  /**
   * When `GenerateRequest.topLogprobs` was set: one entry per token of this delta, in order,
   * whose `token`s concatenated are `text`.
   */
  logprobs?: SampledLogprob[];
}

export interface EngineUsage {
  inputTokens: number;
  /** Prompt tokens served from a prefix/KV cache. */
  cachedTokens: number;
  /** What the engine measured itself, when it reports it (web-llm does, at the end of a generation). */
  timings?: EngineTimings;
  /**
   * Output and reasoning tokens as the engine counted them (an upstream's `usage`), in
   * `finalUsage`; absent: the server counts the deltas' tokens.
   */
  outputTokens?: number;
  reasoningTokens?: number;
}

export interface EngineTimings {
  /** Prompt tokens actually run through the model this turn (`inputTokens - cachedTokens`). */
  prefillTokens: number;
  /** Prefill time: from the start of the prompt to the first sampled token. */
  timeToFirstTokenMs: number;
  prefillTokensPerSecond: number;
  decodeTokensPerSecond: number;
}

/** `content_filter`: an upstream's filter stopped the answer (the response ends `incomplete` for it). */
export type FinishReason = 'stop' | 'length' | 'abort' | 'content_filter';

export interface Generation extends AsyncIterable<EngineDelta> {
  /** Resolves once the prompt has been accepted; rejects with an ApiError (e.g. context overflow). */
  readonly usage: Promise<EngineUsage>;
  /**
   * Usage as the engine counted it, known once iteration has ended (or been abandoned).
   * Engines that learn exact prompt counts only at the end (web-llm: its `usage` chunk
   * comes last) give an estimate in `usage` and the exact numbers here; when absent,
   * `usage` is exact. Rejects like `usage` when the prompt was not accepted.
   */
  readonly finalUsage?: Promise<EngineUsage>;
  /** Why the iteration ended: the model stopped, `maxOutputTokens` was reached, or the signal aborted. */
  finishReason(): FinishReason;
}

export interface Engine {
  readonly name: string;
  /**
   * At most one text event per this many milliseconds: deltas that come sooner after the
   * last event are held and sent together (`shared/paced-batches.ts`), the first one after a
   * pause at once. For engines that can decode faster than the per-event work of the server,
   * the service worker and the client keeps up with; absent or 0: one event per delta.
   */
  readonly deltaWindowMs?: number;
  models(): ModelInfo[];
  /**
   * True when `countTokens` is the model's own count (its tokenizer, or — for the scripted
   * model — its definition of a token); absent/false when it is an estimate.
   */
  readonly exactTokenCounts?: boolean;
  /**
   * True when `generate` honours `topLogprobs` (fills `EngineDelta.logprobs`); absent/false:
   * the server refuses requests for logprobs with a 400 naming the model.
   */
  readonly reportsLogprobs?: boolean;
  /** The most alternatives per token (`topLogprobs`) it can report; absent: OpenAI's 20. */
  readonly maxTopLogprobs?: number;
  /**
   * The grammar syntaxes of `custom` tools (`format: {type: "grammar", syntax}`) this engine
   * constrains a call's input with (`GenerateRequest.toolGrammars`). Absent or without a
   * syntax: a request with such a grammar is refused with a 400 naming it — a call is never
   * presented as constrained when it was not.
   */
  readonly grammarSyntaxes?: ReadonlySet<GrammarSyntax>;
  /**
   * True when the engine templates and parses its model's format itself (an upstream
   * server): `generate` reads `GenerateRequest.conversation` and yields deltas with `events`,
   * which the server takes as they are. Absent/false: raw text through the chat format's parser.
   */
  readonly parsesOutput?: boolean;
  /**
   * True when the engine answers only a conversation whose last message is the user's (or a
   * tool's): web-llm refuses any other (`MessageOrderError`). A request whose input ends with an
   * assistant message is then a 400 before it starts, not a failed response.
   */
  readonly answersOnlyAfterUser?: boolean;
  /**
   * The length of `input` in this model's tokens, counted on what `generate` would feed the
   * model for it; checked against the context window before a response starts.
   */
  countTokens(model: string, input: Rendered): Promise<number>;
  /**
   * Makes `model` ready to generate: downloads, compiles and swaps out another model as
   * needed; resolves at once when it is already loaded. Called while the response waits
   * (`queued`/`in_progress`). Rejects with an ApiError a person can act on.
   */
  ensureLoaded?(model: string, signal: AbortSignal): Promise<void>;
  /**
   * Starts generating. Iterating yields deltas until the model stops; aborting `signal`
   * ends the iteration within one token (the iterator then returns normally).
   * Errors thrown mid-stream are engine failures.
   */
  generate(request: GenerateRequest): Generation;
}
