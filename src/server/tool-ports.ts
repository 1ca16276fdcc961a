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
}
