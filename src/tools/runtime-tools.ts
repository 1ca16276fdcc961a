/**
 * Runtime side of the builtin tools: the `ToolPorts` their descriptors run calls through,
 * built from the options the page passed (see `page-tools.ts`). Each tool's code (the Python
 * sandbox link, web search with its URL policy, the MCP client) is imported at its first
 * call, not when the runtime starts: a runtime whose requests use no tool never downloads
 * any of it, and a first answer without tools waits for none of it.
 */
import type { ToolPorts } from '../ports/tool-ports';
import type { RuntimeToolsOptions } from '../protocol/runtime-options';
import { mcpPort } from './mcp';
import { pythonPort } from './python';
import { workerPrograms } from './program';
import { webSearchPort } from './web';

export { onFirstUse } from './on-first-use';

export interface RuntimeToolsEnv {
  /** The app's origin (never fetched by the web tools). */
  origin: string;
}

/** The tools' ports; none when the runtime was started without tool options (tools are opt-in). */
export function createRuntimeTools(options: RuntimeToolsOptions | undefined, env: RuntimeToolsEnv): ToolPorts {
  if (!options) return {};
  const codeInterpreter = pythonPort(options);
  const webSearch = webSearchPort(options, env.origin);
  const mcp = mcpPort(options, env.origin);
  // Programs need no configuration: QuickJS in a worker per program, its wasm served by the app.
  const programs = workerPrograms();
  return { ...(codeInterpreter ? { codeInterpreter } : {}), ...(webSearch ? { webSearch } : {}), ...(mcp ? { mcp } : {}), programs };
}
