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
import { DEFAULT_PROGRAM_LIMITS, workerPrograms } from './program';
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
  // QuickJS in a worker per program: the worker and its wasm load at the first program.
  const programs = options.programs === false ? undefined : workerPrograms({ limits: { ...DEFAULT_PROGRAM_LIMITS, cpuMs: options.programs?.timeLimitMs ?? DEFAULT_PROGRAM_LIMITS.cpuMs } });
  return { ...(codeInterpreter ? { codeInterpreter } : {}), ...(webSearch ? { webSearch } : {}), ...(mcp ? { mcp } : {}), ...(programs ? { programs } : {}) };
}
