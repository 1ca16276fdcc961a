/**
 * A builtin tool as a plug-in: one descriptor object with named hooks (vite's `Plugin` is the
 * model). Each tool's folder under `tools/` exports its descriptor from its `index.ts`; the
 * composition root lists them, and the server builds one registry from that list
 * (`server/state/tool-registry.ts`). The server calls hooks and never names a tool: what a
 * request may declare, what the model is shown, how a call runs and streams, how its items
 * read in later turns and come back as input — all of it is the descriptor's.
 */
import type { ZodType } from 'zod';
import type { ConversationItem, ToolSpec } from '../chat/chat-format';
import type { BuiltinToolEntry, Tool } from '../protocol/create-request';
import type { OutputItem, StoredItem, UrlCitation } from '../protocol/output-items';
import type { UnsequencedEvent } from '../protocol/stream-events';
import type { EchoedToolEntry } from '../protocol/response-object';
import type { VectorSearchPort } from './vector-search';

/** One of the request's `tools` served by this tool, and where it stands (`tools[index]`, for error params). */
export interface ToolEntry {
  tool: Tool;
  index: number;
}

/** What the runtime offers tools besides their own ports (the server's file store, for `file_search`). */
export interface ToolHost {
  /** Vector stores and their search; absent in a runtime without a file store. */
  vectorSearch?: VectorSearchPort;
  /** The rest of this response's tools, for a tool that calls tools (a program); set by the sessions of one response. */
  peers?: ToolPeers;
}

/** The request's other tools, as a tool that calls tools (programmatic tool calling) reaches them. */
export interface ToolPeers {
  /** The tools in play this turn, in the request's order (`functionsAt(i)` is `tools[i]`'s). */
  readonly tools: readonly Tool[];
  /** The functions of the builtin tool whose first entry is `tools[index]` (none at other places). */
  functionsAt(index: number): readonly ToolSpec[];
  /** Begins a call of a builtin tool's function, as when the model calls it (null: nothing runs). */
  begin(name: string, args: string, context: CallContext): ToolCall | null;
}

/** The turn a request makes: the chain's stored items and its new input, as stored. */
export interface TurnItems {
  history: readonly StoredItem[];
  input: readonly StoredItem[];
}

/**
 * Where a call's item lives while it runs. The run's output builder owns the response's
 * items: a tool keeps its own copy of its item and reports each change here.
 */
export interface ItemWriter {
  /** Appends the item and announces it (`output_item.added`); returns its output index. */
  begin(item: OutputItem): number;
  /** The item at `index` as it stands now (status, results); no event. */
  update(index: number, item: OutputItem): void;
  /** The item is done: its final fields are kept and `output_item.done` announces them. */
  complete(index: number, item: OutputItem): void;
  /** One of the tool's own events (`response.<item>.in_progress`, …), numbered by the run. */
  emit(event: UnsequencedEvent): void;
}

export interface CallContext {
  items: ItemWriter;
  signal: AbortSignal;
  /**
   * Tokens of context left for what a call shows the model: the window, less the
   * conversation so far and the answer still to come. Infinity when the window is unknown.
   */
  contextLeft(): Promise<number>;
}

/** A call the model made, its item begun; run when the model's round ends. */
export interface ToolCall {
  /** Where its item is in `output`: what the call shows the model replaces that item in the next round. */
  readonly index: number;
  /** Runs the call and finishes its item; returns what the model is shown. Never throws for a tool failure (the model is told instead), only when stopped. */
  run(): Promise<ConversationItem[]>;
}

/** A cited source of a response: what a `[n]` marker in its text points at. */
export interface CitedSource {
  file_id: string;
  filename: string;
}

/** A tool's part in one response: made once per response from the request's entries. */
export interface ToolSession {
  /** The functions the model is told about (an MCP server's join once it is listed). */
  functions(): readonly ToolSpec[];
  /**
   * Before the first round: work the request itself asks for (an MCP server to list,
   * calls the user approved). What it adds to the conversation the model sees, and how many
   * calls it made (they count against `max_tool_calls`).
   */
  prepare?(context: CallContext): Promise<{ conversation: ConversationItem[]; calls: number }>;
  /**
   * The model called `name` (one of `functions()`): its item is begun now, while the model's
   * output streams; the call runs when the round ends. Null: nothing runs this turn (the call
   * waits for the user's approval, and the response ends with it).
   */
  begin(name: string, args: string, context: CallContext): ToolCall | null;
  /** `url_citation`s for a finished message's text, from what the calls showed the model. */
  annotate?(text: string): UrlCitation[];
  /** The sources calls numbered for the model (`[1]`, `[2]`, …), which its answer cites by number. */
  sources?(): { size: number; get(n: number): CitedSource | undefined };
  /**
   * Tools the model may call beyond those listed at the prompt's start: what a tool search
   * loaded, earlier in the chain or during this response. They are never added to the leading
   * tool list (that would change the prompt's cached prefix): the item that loaded them shows
   * them to the model where the load happened.
   */
  loaded?(): readonly Tool[];
  /**
   * Its deferred tools a search may load (a deferred MCP server's, once listed): read at
   * search time, through `RequestTools.deferred`.
   */
  deferred?(): readonly DeferredCandidate[];
  /**
   * Its own functions that a load made callable (a deferred MCP server's loaded tools): owned
   * and run by this session, never added to the leading tool list (the load shows them).
   */
  loadedFunctions?(): readonly ToolSpec[];
}

/** A deferred tool a session offers to a search: found by its words, listed as `tool`, shown as `spec`. */
export interface DeferredCandidate {
  /** The model-side function name: unique in a request. */
  key: string;
  /** The words a search matches (name, group, descriptions). */
  text: string;
  /** The entry a `tool_search_output` lists for it (no secrets). */
  tool: Tool;
  /** The function the model is shown once it is loaded. */
  spec: ToolSpec;
}

/** The request's tools in play this turn, deferred ones (`defer_loading`) included: what a tool that loads tools searches. */
export interface RequestTools {
  tools: readonly Tool[];
  /** The other sessions' deferred tools (`ToolSession.deferred`), read when a search runs. */
  deferred?(): readonly DeferredCandidate[];
  /** What the sessions loaded so far (`ToolSession.loaded`): earlier in the chain and during this response. */
  loaded?(): readonly Tool[];
}

/** How a request's tool entry is shown in the response (and stored): secrets dropped. */
export type ToolEcho = (entry: BuiltinToolEntry) => EchoedToolEntry;

export interface BuiltinTool {
  /** How messages name the tool (`the code_interpreter tool`). */
  readonly name: string;
  /** The request `tools[].type` values it serves (dated and preview names too). */
  readonly toolTypes: readonly string[];
  /** The output item types it writes (and takes back as input). */
  readonly itemTypes: readonly string[];
  /** Of those, the items that end the response waiting for the client (an approval request). */
  readonly waitingItemTypes?: readonly string[];
  /** An item that ends the response waiting for the client, when its type alone does not say (a client-run search's call). */
  waits?(item: OutputItem): boolean;
  /** It loads the request's deferred tools (`defer_loading: true`): without such a tool in `tools`, deferred tools are a 400. */
  readonly loadsDeferredTools?: boolean;
  /**
   * Schemas of a plug-in the protocol does not know: its `tools` entry and its items as
   * input (each a strict object keyed by `type`). The builtin tools' schemas live in
   * `protocol/`, as part of the SDK's wire; a plug-in brings its own.
   */
  readonly schemas?: { entry?: ZodType; items?: readonly ZodType[] };
  /** The `include` values it owns, each with how one of its items is shown without it. */
  readonly includes?: Readonly<Record<string, (item: OutputItem) => OutputItem>>;
  /** How its entry is echoed in the response and stored, when not as sent (secrets a call needs are dropped). */
  echo?: ToolEcho;
  /** Model-side function names it takes while enabled: a client function may not take them too. */
  functionNames?(entries: readonly Tool[]): readonly string[];
  /** The request's entries beyond their schema (the runtime can serve them, no duplicates): throws an ApiError (400/404) naming the parameter. */
  check?(entries: readonly ToolEntry[], host: ToolHost, tools: readonly Tool[]): void | Promise<void>;
  /** The turn's input beyond its schema, against the chain (an answer must match a request of it). */
  checkTurn?(entries: readonly ToolEntry[], turn: TurnItems): void;
  /**
   * One of its items sent back as input (a client that keeps its own history replays
   * `output`): the item as stored. Never run again — it is history. `param` names the item
   * (`input[3]`) for errors.
   */
  accept(item: { type: string }, param: string): StoredItem;
  /**
   * What the model sees of a stored item in a later turn (and in a compaction's summary):
   * the call it made and what it was shown, within the same limits as when it ran.
   * `items` is the whole conversation (an answer reads the request it answers).
   */
  view(item: StoredItem, items: readonly StoredItem[]): ConversationItem[];
  /** Its part in one response, from the entries the model may use this turn. */
  session(entries: readonly Tool[], turn: TurnItems, host: ToolHost, request: RequestTools): ToolSession;
}
