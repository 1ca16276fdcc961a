/**
 * Runtime side of the builtin tools: the `ToolPorts` the Responses server runs builtin
 * calls through, built from the options the page passed (see `page-tools.ts`). Each tool's
 * code is imported only when it is on, so a runtime without tools loads none of it.
 */
import type { ToolPorts } from '../ports/tool-ports';
import type { RuntimeToolsOptions } from '../protocol/runtime-options';

export interface RuntimeToolsEnv {
  /** The app's origin (never fetched by the web tools). */
  origin: string;
}

export async function createRuntimeTools(options: RuntimeToolsOptions, env: RuntimeToolsEnv): Promise<ToolPorts> {
  const tools: ToolPorts = {};
  // Without the sandbox frame's port there is no safe place to run Python, and without its
  // files (`python.assets`) nothing to run: no interpreter.
  if (options.python && options.pythonPort && options.python.assets) {
    const { createSandboxedPython } = await import('./python/sandboxed-python');
    const { assets, ...python } = options.python;
    tools.codeInterpreter = createSandboxedPython({ ...python, port: options.pythonPort, assets });
  }
  if (options.webSearch !== false) {
    const { createFetchWebSearch } = await import('./web/fetch-web-search');
    const { allowPrivateNetwork, allowHosts, ...rest } = options.webSearch ?? {};
    tools.webSearch = createFetchWebSearch({ ...rest, policy: { appOrigin: env.origin, allowPrivateNetwork: allowPrivateNetwork ?? false, allowHosts: allowHosts ?? [] } });
  }
  if (options.mcp !== false) {
    const { createMcpClient } = await import('./mcp/mcp-client');
    const { allowHosts, allowPrivateNetwork, ...rest } = options.mcp ?? {};
    tools.mcp = createMcpClient({ ...rest, policy: { appOrigin: env.origin, allowPrivateNetwork: allowPrivateNetwork ?? false, allowHosts: allowHosts ?? [] } });
  }
  return tools;
}
