/**
 * Remote MCP servers (`mcp`): the runtime as their client (the official SDK's, imported at
 * the first list or call), every request through the web tools' URL policy. The port and the descriptor.
 */
import type { McpPort } from '../../ports/tool-ports';
import type { RuntimeToolsOptions } from '../../protocol/runtime-options';
import { onFirstUse } from '../on-first-use';

export { mcpTool } from './mcp-tool';
// What tool_search shows of a deferred server's loaded tools, rebuilt from stored items.
export { mcpLoadedSpecs } from './mcp-deferred';

/** The MCP client unless turned off (`mcp: false`); `appOrigin` is never reached. */
export function mcpPort(options: RuntimeToolsOptions, appOrigin: string): McpPort | undefined {
  if (options.mcp === false) return undefined;
  const { allowHosts, allowPrivateNetwork, ...rest } = options.mcp ?? {};
  const policy = { appOrigin, allowPrivateNetwork: allowPrivateNetwork ?? false, allowHosts: allowHosts ?? [] };
  const client = onFirstUse(async () => (await import('./mcp-client')).createMcpClient({ ...rest, policy }));
  return {
    listTools: async (server, signal) => (await client()).listTools(server, signal),
    callTool: async (server, name, args, signal) => (await client()).callTool(server, name, args, signal),
  };
}
