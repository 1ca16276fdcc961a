/**
 * How the app configures the builtin tools. Plain data: it crosses from the page into the
 * runtime worker with the start options.
 */
import type { PyodideAssets } from './python/pyodide-files';
import type { SearchProviderConfig } from './web/search-providers';

export interface PythonToolConfig {
  /**
   * pyodide's files: a folder URL holding them under their own names (the app serves
   * `/pyodide/`), or one URL per file — `pyodideAssets` of the package's
   * `local-responses/python` entry, which a bundler copies. Without it there is no code
   * interpreter: Python is opt-in, so an app that does not ask for it ships no pyodide.
   */
  assets?: PyodideAssets;
  /** Per call, ms. Default 30 000. */
  timeLimitMs?: number;
  /** A conversation's Python state is dropped after this long unused, ms. Default 20 minutes. */
  idleMs?: number;
  /** Live interpreters at most (each is tens of MB). Default 4. */
  maxContainers?: number;
  /** Keep one interpreter started ahead once Python has been used. Default true. */
  warmSpare?: boolean;
  /**
   * Package index for imports beyond the standard library, e.g.
   * `https://cdn.jsdelivr.net/pyodide/v314.0.7/full/`: packages load on import when
   * online, and the sandbox may then connect to that origin (only). Default: none.
   */
  packageBaseUrl?: string;
}

export interface WebSearchToolConfig {
  /** Default Wikipedia (English). */
  provider?: SearchProviderConfig;
  /** Allow localhost and private-network addresses (a self-hosted SearXNG, tests). */
  allowPrivateNetwork?: boolean;
  /** Private hosts (`host` or `host:port`) allowed one by one. */
  allowHosts?: string[];
  /** Budget of an opened page, in tokens (~4 characters each). Default 3000. */
  pageTokens?: number;
  /** Results per search. Default 5. */
  maxResults?: number;
}

export interface McpToolConfig {
  /**
   * MCP servers on this machine or a private network that the user allowed (`host` or
   * `host:port`, e.g. `localhost:3000`); public servers need no entry.
   */
  allowHosts?: string[];
  /** Allow every localhost / private-network MCP server (tests). Default false. */
  allowPrivateNetwork?: boolean;
  /** A tool's output is cut to this many characters. Default 20 000. */
  maxOutputChars?: number;
  /** Per list or call, ms. Default 60 000. */
  timeoutMs?: number;
}

export interface ToolsConfig {
  /** `false`: no code interpreter in this runtime. */
  python?: PythonToolConfig | false;
  /** `false`: no web search in this runtime. */
  webSearch?: WebSearchToolConfig | false;
  /** `false`: requests with `mcp` tools are refused. */
  mcp?: McpToolConfig | false;
}

/** What the runtime worker receives: the config and the port to the Python sandbox frame. */
export interface RuntimeToolsOptions extends ToolsConfig {
  pythonPort?: MessagePort;
}
