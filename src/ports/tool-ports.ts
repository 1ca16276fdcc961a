/**
 * Ports for builtin tools. The server runs a builtin call through these and never knows
 * whether Python runs in a sandboxed worker or pages come over `fetch`: implementations
 * live in `tools/` and are wired by the runtime entry.
 */

export interface CodeRunResult {
  /** stdout + stderr, in order. */
  logs: string;
  /** Images the code produced, as data URLs. */
  images: string[];
  /** Why the call failed (exception, time limit), in words the model can act on; null on success. */
  error: string | null;
}

export interface CodeInterpreterPort {
  /** Runs `code` in the container's Python state (created on first use, dropped when idle). */
  run(code: string, options: { containerId: string; signal: AbortSignal }): Promise<CodeRunResult>;
}

export interface SearchSource {
  url: string;
  title: string;
  snippet: string;
}

export interface WebPage {
  url: string;
  title: string;
  /** Readable text, already cut to the tool's budget. */
  text: string;
}

export interface WebSearchPort {
  search(query: string, signal: AbortSignal): Promise<SearchSource[]>;
  openPage(url: string, signal: AbortSignal): Promise<WebPage>;
  /** Lines of the page that contain `pattern` (case-insensitive), with a little context. */
  findInPage(url: string, pattern: string, signal: AbortSignal): Promise<{ url: string; matches: string[] }>;
}

export interface ToolPorts {
  codeInterpreter?: CodeInterpreterPort;
  webSearch?: WebSearchPort;
  /** The MCP client (remote servers named by a request's `mcp` tools). */
  mcp?: McpPort;
  /** Sandboxes for model-written JavaScript (`programmatic_tool_calling`). */
  programs?: ProgramsPort;
}

/** One MCP server as a call reaches it: the secrets (`authorization`, `headers`) live only here, in memory. */
export interface McpServerTarget {
  label: string;
  url: string;
  /** HTTP headers for every request to the server, `Authorization` included when given. */
  headers: Readonly<Record<string, string>>;
}

export interface McpToolInfo {
  name: string;
  description?: string | null;
  input_schema: unknown;
  annotations?: unknown;
}

/**
 * Why an MCP operation failed, as data. `http` with status 0: no HTTP answer was read
 * (server down, CORS refused, URL policy); `protocol`: a JSON-RPC error. The message says
 * what happened and what the person can do about it, and never contains a secret.
 */
export type McpFailure = { kind: 'http'; status: number; message: string } | { kind: 'protocol'; code: number; message: string };

export type McpOutcome<T> = { ok: true; value: T } | { ok: false; error: McpFailure };

export interface McpToolResult {
  /** The tool's content as text (untrusted), already cut to the runtime's limit. */
  output: string;
  /** The tool itself reported an error (`isError`); `content` is what it returned. */
  isError: boolean;
  content: unknown;
}

export interface McpPort {
  /** Every tool the server offers (all pages). Never throws; failures come back as data. */
  listTools(server: McpServerTarget, signal: AbortSignal): Promise<McpOutcome<McpToolInfo[]>>;
  callTool(server: McpServerTarget, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpOutcome<McpToolResult>>;
}

/** A tool call a program made: `tools.a.b(args)` → path `["a", "b"]`, the arguments as JSON. */
export interface ProgramToolCall {
  id: number;
  path: string[];
  arguments: string;
}

/** Where a program stands after running: waiting for calls (the new ones listed), or over (`result`: its return value as JSON). */
export type ProgramStep = { type: 'calls'; calls: ProgramToolCall[] } | { type: 'done'; result: string } | { type: 'failed'; error: string };

/** A call's answer: the tool's output text, or why it failed (a rejection in the program). */
export type ProgramCallAnswer = { id: number; ok: true; output: string } | { id: number; ok: false; error: string };

/**
 * One program's sandbox (QuickJS in a worker of its own in the browser). Between steps the
 * program holds its state and uses no CPU; `close` ends it.
 */
export interface ProgramSandbox {
  start(code: string, paths: readonly (readonly string[])[]): Promise<ProgramStep>;
  answer(answers: readonly ProgramCallAnswer[]): Promise<ProgramStep>;
  close(): void;
}

export interface ProgramsPort {
  open(): ProgramSandbox;
}
