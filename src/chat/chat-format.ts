/**
 * The chat-format port: how a model family is shown a conversation and how its raw
 * output is read back. Engines produce raw text; a ChatFormat turns it into
 * reasoning / text / tool-call events, once, for every engine.
 */
import type { ChatMessage } from './chat-message';
import type { CallSyntax } from './grammar/call-grammar';

/** A function tool as the model is told about it. */
export interface ToolSpec {
  name: string;
  description?: string | null;
  /** JSON Schema of the arguments object. */
  parameters?: Record<string, unknown> | null;
}

/** The conversation as the model sees it, in Responses terms, already flattened to text. */
export type ConversationItem =
  | {
      type: 'message';
      role: 'system' | 'developer' | 'user' | 'assistant';
      text: string;
      /** Image URLs (`https:` or `data:`) of the message's `input_image` parts: local formats show text only; an upstream is sent them. */
      images?: string[];
    }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  /** `images`: image parts of a tool's output (URLs), for models that see. */
  | { type: 'function_call_output'; call_id: string; output: string; images?: string[] }
  | { type: 'reasoning'; text: string };

export interface RenderInput {
  /** Request `instructions`: a system message placed first. */
  instructions?: string | null;
  items: ConversationItem[];
  /** Tools the request enables; only these are described to the model. */
  tools: ToolSpec[];
  /**
   * Whether the model should reason before answering, for families that can switch it
   * (Qwen3). `undefined` keeps the model's default; formats that cannot switch ignore it.
   * See `thinkingFromEffort` for the mapping from `reasoning.effort`.
   */
  enableThinking?: boolean;
}

/**
 * A conversation rendered for the model — what an engine is given (`GenerateRequest.input`).
 * It has two forms of the same content, because engines consume different ones and one
 * (wllama) chooses only once the model is loaded: `messages` for engines that apply a
 * template of their own, `prompt` for raw completion.
 */
export interface Rendered {
  /** Role/content turns with tool definitions, calls and results written in the family's syntax. */
  messages: ChatMessage[];
  /** The same turns with this format's template applied, ending with the assistant generation prompt. */
  prompt: string;
}

export type ParseEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  /** A `<think>` block closed. */
  | { type: 'reasoning_done' }
  /** A complete, valid call of an enabled tool. `arguments` is a JSON object serialized. */
  | { type: 'tool_call'; name: string; arguments: string };

export interface StreamParser {
  /** Feed the next raw chunk; returns what became certain. Partial tags are held back. */
  push(chunk: string): ParseEvent[];
  /** The stream ended: flush what was held back (an unclosed tag is plain text / reasoning). */
  end(): ParseEvent[];
  /**
   * Character ranges `[start, end)` of the raw stream that lay inside `<think>…</think>`,
   * tags included. Used to count reasoning tokens. Complete after `end()`.
   */
  reasoningSpans(): Array<[number, number]>;
  /**
   * Ranges `[start, end)` of the raw blocks that became `tool_call` events. With
   * `reasoningSpans` it says which raw characters became text: all the others, in order
   * (token logprobs of output text are found that way).
   */
  toolCallSpans(): Array<[number, number]>;
}

export interface ParserOptions {
  /** Names of the tools the request enables; a call of any other name stays text. */
  toolNames: ReadonlySet<string>;
  /** The prompt already opened a `<think>` block (e.g. R1 distills): start in reasoning. */
  startInReasoning?: boolean;
  /**
   * Whether a well-formed call of an enabled tool stands as a call; when it returns false the
   * block stays text, as a call of an unknown tool does (a tool whose arguments must have a
   * shape, e.g. a shell call's `commands`). Absent: every such call stands.
   */
  acceptsCall?: (name: string, args: string) => boolean;
}

export interface ChatFormat {
  readonly name: string;
  render(input: RenderInput): Rendered;
  createParser(options: ParserOptions): StreamParser;
  /**
   * How the family writes a tool call, for engines that constrain output with a grammar (a
   * custom tool's grammar: `grammar/call-grammar.ts`). Absent: its calls cannot be
   * constrained, and a request with a custom tool grammar is refused.
   */
  readonly callSyntax?: CallSyntax;
}
