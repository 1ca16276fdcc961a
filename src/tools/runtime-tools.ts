/**
 * Runtime side of the builtin tools: the `ToolPorts` the Responses server runs builtin
 * calls through, built from the options the page passed (see `page-tools.ts`). Each tool's
 * code (the Python sandbox link, web search with its URL policy, the MCP client) is imported
 * at its first call, not when the runtime starts: a runtime whose requests use no tool never
 * downloads any of it, and a first answer without tools waits for none of it.
 */
import type { CodeInterpreterPort, McpPort, ToolPorts, WebSearchPort } from '../ports/tool-ports';
import type { RuntimeToolsOptions } from '../protocol/runtime-options';

export interface RuntimeToolsEnv {
  /** The app's origin (never fetched by the web tools). */
  origin: string;
}

/**
 * `load` once, at the first call; a failed load (the file not fetched yet and the network
 * gone) fails that call and is tried again at the next.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    if (!loading) {
      const started = load();
      started.catch(() => {
        if (loading === started) loading = null;
      });
      loading = started;
    }
    return loading;
  };
}

export function createRuntimeTools(options: RuntimeToolsOptions, env: RuntimeToolsEnv): ToolPorts {
  const tools: ToolPorts = {};
  // Without the sandbox frame's port there is no safe place to run Python, and without its
  // files (`python.assets`) nothing to run: no interpreter.
  if (options.python && options.pythonPort && options.python.assets) {
    const { assets, ...python } = options.python;
    const port = options.pythonPort;
    const interpreter = onFirstUse(async () => (await import('./python/sandboxed-python')).createSandboxedPython({ ...python, port, assets }));
    tools.codeInterpreter = { run: async (code, runOptions) => (await interpreter()).run(code, runOptions) } satisfies CodeInterpreterPort;
  }
  if (options.webSearch !== false) {
    const { allowPrivateNetwork, allowHosts, ...rest } = options.webSearch ?? {};
    const policy = { appOrigin: env.origin, allowPrivateNetwork: allowPrivateNetwork ?? false, allowHosts: allowHosts ?? [] };
    const search = onFirstUse(async () => (await import('./web/fetch-web-search')).createFetchWebSearch({ ...rest, policy }));
    tools.webSearch = {
      search: async (query, signal) => (await search()).search(query, signal),
      openPage: async (url, signal) => (await search()).openPage(url, signal),
      findInPage: async (url, pattern, signal) => (await search()).findInPage(url, pattern, signal),
    } satisfies WebSearchPort;
  }
  if (options.mcp !== false) {
    const { allowHosts, allowPrivateNetwork, ...rest } = options.mcp ?? {};
    const policy = { appOrigin: env.origin, allowPrivateNetwork: allowPrivateNetwork ?? false, allowHosts: allowHosts ?? [] };
    const client = onFirstUse(async () => (await import('./mcp/mcp-client')).createMcpClient({ ...rest, policy }));
    tools.mcp = {
      listTools: async (server, signal) => (await client()).listTools(server, signal),
      callTool: async (server, name, args, signal) => (await client()).callTool(server, name, args, signal),
    } satisfies McpPort;
  }
  return tools;
}
