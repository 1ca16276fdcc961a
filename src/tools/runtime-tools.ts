/**
 * Runtime side of the builtin tools: the `ToolPorts` the Responses server runs builtin
 * calls through, built from the options the page passed (see `page-tools.ts`).
 */
import type { ToolPorts } from '../server/tool-ports';
import { createSandboxedPython } from './python/sandboxed-python';
import type { RuntimeToolsOptions } from './tools-config';
import { createFetchWebSearch } from './web/fetch-web-search';
import { createMcpClient } from './mcp/mcp-client';

export interface RuntimeToolsEnv {
  /** The app's origin (never fetched by the web tools). */
  origin: string;
  /** Where the app serves pyodide's files. */
  pyodideIndexURL: string;
}

export function createRuntimeTools(options: RuntimeToolsOptions, env: RuntimeToolsEnv): ToolPorts {
  const tools: ToolPorts = {};
  // Without the sandbox frame's port there is no safe place to run Python: no interpreter.
  if (options.python !== false && options.pythonPort) {
    tools.codeInterpreter = createSandboxedPython({ ...options.python, port: options.pythonPort, indexURL: env.pyodideIndexURL });
  }
  if (options.webSearch !== false) {
    const { allowPrivateNetwork, allowHosts, ...rest } = options.webSearch ?? {};
    tools.webSearch = createFetchWebSearch({ ...rest, policy: { appOrigin: env.origin, allowPrivateNetwork: allowPrivateNetwork ?? false, allowHosts: allowHosts ?? [] } });
  }
  if (options.mcp !== false) {
    const { allowHosts, allowPrivateNetwork, ...rest } = options.mcp ?? {};
    tools.mcp = createMcpClient({ ...rest, policy: { appOrigin: env.origin, allowPrivateNetwork: allowPrivateNetwork ?? false, allowHosts: allowHosts ?? [] } });
  }
  return tools;
}
